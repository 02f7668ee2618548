public import Foundation

/// TIFF-based RAW files made at test time: the structure a NEF or DNG has (IFD0 with a small
/// image, EXIF and GPS, an embedded JPEG preview), not real sensor data.
public enum RawFiles {
    /// A Nikon-style NEF (or, with `dng`, a DNG) of a 6048×4024 sensor with a 600×400 preview.
    public static func nef(orientation: Int = 1, dng: Bool = false) throws -> Data {
        var exif = ExifBuilder(
            make: "NIKON CORPORATION", model: "NIKON Z 6", orientation: orientation,
            dateTimeOriginal: "2021:07:04 10:11:12", offsetTimeOriginal: "+02:00", latitude: 46.5, longitude: 7.9)
        exif.imageWidth = 160
        exif.imageLength = 120
        exif.pixelXDimension = 6048
        exif.pixelYDimension = 4024
        exif.dngVersion = dng
        exif.previewJPEG = try TestImages.jpeg(width: 600, height: 400)
        return exif.tiffData()
    }
}
