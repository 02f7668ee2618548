// `import AVFoundation` brings Core Media's types (`CMTime`, `CMTimeRange`), as Apple's does.
@_exported public import CoreMedia
@_exported public import CoreGraphics
