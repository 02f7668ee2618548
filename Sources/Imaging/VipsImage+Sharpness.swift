public import Foundation
internal import CVips

extension VipsImage {
    /// The image's pixels as one 8-bit grey band, row by row (`width × height` bytes).
    public func greyPixels() throws(ImagingError) -> [UInt8] {
        let grey = try derive("converting to grey") { cvips_grey_uchar(pointer, $0) }
        var length = 0
        guard let memory = vips_image_write_to_memory(grey.pointer, &length) else {
            throw ImagingError.vips(.decodeFailed, "reading the pixels of", url: sourceURL)
        }
        defer { g_free(memory) }
        return [UInt8](UnsafeRawBufferPointer(start: memory, count: length))
    }

    /// How sharp a photo is: the variance of its Laplacian (4-neighbour) over a grey version
    /// at most `size` pixels on its long side, made with shrink-on-load. Higher is sharper;
    /// comparable between photos of one scene (a burst), not across scenes.
    public static func sharpness(ofFileAt url: URL, size: Int = 512) throws(ImagingError) -> Double {
        let image = try thumbnail(fileAt: url, width: size, height: size, upscale: false)
        let pixels = try image.greyPixels()
        let width = image.width, height = image.height
        guard width >= 3, height >= 3, pixels.count >= width * height else { return 0 }
        var sum = 0.0, sumOfSquares = 0.0
        for y in 1..<(height - 1) {
            let row = y * width
            for x in 1..<(width - 1) {
                let center = Int(pixels[row + x])
                let laplacian = Int(pixels[row + x - 1]) + Int(pixels[row + x + 1]) + Int(pixels[row - width + x])
                    + Int(pixels[row + width + x]) - 4 * center
                let value = Double(laplacian)
                sum += value
                sumOfSquares += value * value
            }
        }
        let count = Double((width - 2) * (height - 2))
        let mean = sum / count
        return sumOfSquares / count - mean * mean
    }
}
