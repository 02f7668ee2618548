// Core Image and AVFoundation's frames, timed in a release build beside the peers
// Benchmarks/run-coreimage-benchmark.sh runs (the `vips` command, `ffmpeg`).
//
//   CoreImageBenchmark pipeline PHOTO OUTPUT RUNS   CIColorControls + CISepiaTone + CIVignette + a JPEG
//   CoreImageBenchmark strip MOVIE RUNS             a strip of 10 thumbnails, 120 px tall
//
// Prints one `RESULT name=value` line per run (milliseconds, wall time).
import AVFoundation
import CoreImage
import Foundation
import Photos

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: CoreImageBenchmark pipeline PHOTO OUTPUT RUNS | strip MOVIE RUNS\n".utf8))
    exit(2)
}

switch arguments[1] {
case "pipeline":
    let (photo, output, runs) = (URL(fileURLWithPath: arguments[2]), URL(fileURLWithPath: arguments[3]), Int(arguments[4]) ?? 5)
    let context = CIContext()
    for _ in 0..<runs {
        try? FileManager.default.removeItem(at: output)
        let elapsed = try milliseconds {
            guard let image = CIImage(contentsOf: photo) else { throw CocoaError(.fileReadCorruptFile) }
            let controls = CIFilter.colorControls()
            controls.inputImage = image
            controls.saturation = 1.2
            controls.brightness = 0.02
            controls.contrast = 1.1
            let sepia = CIFilter.sepiaTone()
            sepia.inputImage = controls.outputImage
            sepia.intensity = 0.6
            let vignette = CIFilter.vignette()
            vignette.inputImage = sepia.outputImage
            vignette.intensity = 0.8
            vignette.radius = 1
            try context.writeJPEGRepresentation(
                of: vignette.outputImage!, to: output, colorSpace: CGColorSpaceCreateDeviceRGB(),
                options: [kCGImageDestinationLossyCompressionQuality as CIImageRepresentationOption: 0.85])
        }
        print("RESULT pipeline_ms=\(String(format: "%.1f", elapsed))")
    }
case "strip":
    let (movie, runs) = (URL(fileURLWithPath: arguments[2]), Int(arguments[3]) ?? 5)
    let asset = AVURLAsset(url: movie)
    let duration = asset.duration.seconds
    for _ in 0..<runs {
        let generator = AVAssetImageGenerator(asset: asset)
        generator.appliesPreferredTrackTransform = true
        generator.maximumSize = CGSize(width: 0, height: 120)
        let times = (0..<10).map { NSValue(time: CMTime(seconds: duration * (Double($0) + 0.5) / 10, preferredTimescale: 600)) }
        let elapsed = milliseconds {
            let done = DispatchSemaphore(value: 0)
            let count = NSLock()
            nonisolated(unsafe) var answered = 0
            generator.generateCGImagesAsynchronously(forTimes: times) { _, image, _, _, _ in
                precondition(image != nil, "a frame failed")
                count.lock()
                answered += 1
                let last = answered == times.count
                count.unlock()
                if last { done.signal() }
            }
            done.wait()
        }
        print("RESULT strip_ms=\(String(format: "%.1f", elapsed))")
    }
default:
    FileHandle.standardError.write(Data("unknown mode \(arguments[1])\n".utf8))
    exit(2)
}
