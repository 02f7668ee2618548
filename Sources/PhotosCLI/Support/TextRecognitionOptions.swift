import ArgumentParser
import Imaging
import Photos

/// `--text-languages`: what `photos serve` and `photos cache warm --text` read text in photos in.
struct TextRecognitionOptions: ParsableArguments {
    @Option(help: "The languages text in photos is read in, Tesseract's names joined by +: eng, eng+deu+fra ... (each installed: apt install tesseract-ocr-deu).")
    var textLanguages = "eng"

    var languages: [String] { textLanguages.split(separator: "+").map { String($0).trimmingCharacters(in: .whitespaces) } }

    func validate() throws {
        let wanted = languages
        guard !wanted.isEmpty, wanted.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0 == "_" } }) else {
            throw ValidationError("--text-languages takes Tesseract's language names joined by +, like eng+deu, not '\(textLanguages)'")
        }
        // Without Tesseract nothing is read (said when the work starts): no list to check against.
        guard TextRecognizer.executable != nil else { return }
        let installed = Set(TextRecognizer.installedLanguages())
        let missing = wanted.filter { !installed.contains($0) }
        guard missing.isEmpty else {
            throw ValidationError(
                "--text-languages: \(missing.joined(separator: ", ")) not installed (apt install \(missing.map { "tesseract-ocr-\($0)" }.joined(separator: " "))); installed: \(installed.sorted().joined(separator: ", "))")
        }
    }

    func apply(to configuration: inout PHPhotoLibrary.Configuration) {
        configuration.textRecognizer.languages = languages
    }
}
