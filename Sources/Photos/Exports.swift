// `import Photos` brings Foundation, AVFoundation (with Core Media), CoreLocation's and
// UniformTypeIdentifiers' types too, as Apple's module does, so a
// file that imports only Photos can use `NSPredicate`, `Data`, `UserDefaults` or
// `asset.location?.coordinate`.
@_exported public import AVFoundation
@_exported public import CoreGraphics
@_exported public import CoreImage
@_exported public import CoreLocation
@_exported public import Foundation
@_exported public import UniformTypeIdentifiers
