// `import Photos` brings CoreLocation's types too, as on Apple's platforms, so code that
// reads `asset.location?.coordinate` needs no other import.
@_exported public import CoreLocation
