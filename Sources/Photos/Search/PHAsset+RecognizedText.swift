public import Foundation

/// A word read in a photo (Tesseract), and where it is.
///
/// Linux addition: Apple's Photos reads text on device with no API for it (apps use Vision's
/// `VNRecognizeTextRequest`, whose boxes start at the bottom left; these start at the top left).
public struct PHRecognizedWord: Sendable, Hashable {
    /// The word as read.
    public var text: String
    /// Where it is in the image as shown (orientation and edits applied), in fractions of
    /// its width and height, from its top left corner.
    public var boundingBox: CGRect

    public init(text: String, boundingBox: CGRect) {
        self.text = text
        self.boundingBox = boundingBox
    }
}

extension PHAsset {
    /// The words read in the photo for search, where they are; nil until it has been read
    /// (in the background after import, or by `photos cache warm --text`), for a video, or
    /// when the library can't be read.
    ///
    /// Linux addition.
    public var recognizedText: [PHRecognizedWord]? {
        guard mediaType == .image else { return nil }
        return (library ?? PHPhotoLibrary.current).textRecognition.words(in: self)?.map {
            PHRecognizedWord(text: $0.text, boundingBox: CGRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height))
        }
    }
}
