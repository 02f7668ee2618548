import Foundation

/// The fields of an iPhone's maker note (EXIF tag 0x927C) the library uses, with tag numbers
/// as exiftool names them: HDRImageType (0x000A), BurstUUID (0x000B), ContentIdentifier
/// (0x0011, the key pairing a Live Photo's still and movie), ImageCaptureType (0x0014, 2 =
/// Portrait), CameraType (0x002E, 6 = front) and FrontFacingCamera (0x0045).
///
/// The note is "Apple iOS\0", a 2-byte version, a byte-order mark ("MM" or "II"), then an IFD
/// at offset 14 whose value offsets count from the start of the note.
struct AppleMakerNote: Sendable, Equatable {
    var hdrImageType: Int?
    var burstUUID: String?
    var contentIdentifier: String?
    var imageCaptureType: Int?
    var cameraType: Int?
    var frontFacingCamera: Bool?

    static let signature = Array("Apple iOS\0".utf8)

    init?(_ value: TIFFValue) {
        guard case .undefined(let note) = value, note.count > 16, Array(note.prefix(10)) == Self.signature else { return nil }
        // Give the parser a TIFF header in place of the signature: the same byte order, and
        // the IFD at 14; offsets inside stay relative to the note's start, as Apple writes them.
        var bytes = note
        let bigEndian = note[12] == 0x4D && note[13] == 0x4D
        guard bigEndian || (note[12] == 0x49 && note[13] == 0x49) else { return nil }
        bytes.replaceSubrange(0..<8, with: bigEndian ? [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 14] : [0x49, 0x49, 0x2A, 0x00, 14, 0, 0, 0])
        guard let directory = TIFFParser(source: DataSource(bytes), base: 0)?.readDirectory(at: 14)?.0 else { return nil }
        hdrImageType = directory[0x000A]?.int
        burstUUID = Self.identifier(directory[0x000B])
        contentIdentifier = Self.identifier(directory[0x0011])
        imageCaptureType = directory[0x0014]?.int
        cameraType = directory[0x002E]?.int
        frontFacingCamera = directory[0x0045]?.int.map { $0 != 0 }
    }

    private static func identifier(_ value: TIFFValue?) -> String? {
        guard let text = value?.string?.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0"))),
            !text.isEmpty
        else { return nil }
        return text.uppercased()
    }

    /// An HDR merge (not the unprocessed original kept beside it).
    var isHDR: Bool { hdrImageType == 3 }
    /// Portrait mode: a depth-effect photo.
    var isPortrait: Bool { imageCaptureType == 2 }
    /// Taken with the front (selfie) camera.
    var isFrontCamera: Bool { frontFacingCamera == true || cameraType == 6 }
}
