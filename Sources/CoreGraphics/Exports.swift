// `import CoreGraphics` brings Foundation's `CGFloat`, `CGPoint`, `CGSize` and `CGRect` with it, as
// Apple's does.
@_exported public import Foundation
