// libFuzzer target: the iPhone maker note (EXIF tag 0x927C).
//
// The input is the note's bytes as the TIFF reader keeps them ("Apple iOS\0", version, byte
// order, IFD): AppleMakerNote rewrites the signature into a TIFF header and reads the IFD at 14
// with offsets relative to the note, then the identifiers (burst UUID, Live Photo content
// identifier) as text. The derived flags are read too, as MediaProbe does.
import Foundation
@testable import Imaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppleMakerNote(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    if let note = AppleMakerNote(.undefined(bytes)) {
        _ = (note.isHDR, note.isPortrait, note.isFrontCamera, note.burstUUID, note.contentIdentifier)
    }
    return 0
}
