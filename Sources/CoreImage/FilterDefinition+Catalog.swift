import CoreGraphics
import Foundation

/// The catalogue: every filter with Apple's name, input keys and defaults. Colour filters are
/// matrices on linear light (``ColorMatrix``), so a chain of them renders as one; each
/// formula is written here once and documented in `docs/core-image.md`.
extension FilterDefinition {
    static let all: [FilterDefinition] = colourAdjustments + colourEffects + photoEffects + detail + geometry

    private static func input(_ key: String, _ kind: Kind, _ value: Any? = nil) -> Input { Input(key: key, kind: kind, defaultValue: value) }
    private static let image = input(kCIInputImageKey, .image)
    private static let still = [kCICategoryBuiltIn, kCICategoryStillImage, kCICategoryVideo]

    /// A filter whose output is its input with a colour matrix applied.
    private static func matrixFilter(
        _ name: String, _ category: String, _ inputs: [Input], _ matrix: @escaping @Sendable (FilterValues) -> ColorMatrix
    ) -> FilterDefinition {
        FilterDefinition(name: name, categories: still + [category], inputs: [image] + inputs) { values in
            values.image?.applyingMatrix(matrix(values))
        }
    }

    private static let colourAdjustments: [FilterDefinition] = [
        // Saturation (a mix with grey of the same luminance), then brightness (added), then
        // contrast ((x − 0.5) × c + 0.5).
        matrixFilter(
            "CIColorControls", kCICategoryColorAdjustment,
            [input(kCIInputSaturationKey, .number, 1.0), input(kCIInputBrightnessKey, .number, 0.0), input(kCIInputContrastKey, .number, 1.0)]
        ) { values in
            ColorMatrix.saturation(values.number(kCIInputSaturationKey))
                .then(.brightness(values.number(kCIInputBrightnessKey)))
                .then(.contrast(values.number(kCIInputContrastKey)))
        },
        // Apple's formula: s.rgb × 2^EV.
        matrixFilter("CIExposureAdjust", kCICategoryColorAdjustment, [input(kCIInputEVKey, .number, 0.0)]) { values in
            let gain = pow(2, values.number(kCIInputEVKey))
            return .gains(gain, gain, gain)
        },
        // Apple's formula: pow(s.rgb, power).
        FilterDefinition(name: "CIGammaAdjust", categories: still + [kCICategoryColorAdjustment], inputs: [image, input("inputPower", .number, 1.0)]) {
            values in
            let power = values.number("inputPower")
            guard let image = values.image else { return nil }
            return power == 1 ? image : image.with(.curve(image.recipe, .gamma(power)))
        },
        // A rotation of `angle` radians about the grey axis.
        matrixFilter("CIHueAdjust", kCICategoryColorAdjustment, [input(kCIInputAngleKey, .number, 0.0)]) { values in
            .hueRotation(values.number(kCIInputAngleKey))
        },
        // Channel gains that take the white of `neutral` (temperature in kelvin, tint) to the
        // white of `targetNeutral`, luminance kept.
        matrixFilter(
            "CITemperatureAndTint", kCICategoryColorAdjustment,
            [input("inputNeutral", .vector, CIVector(x: 6500, y: 0)), input("inputTargetNeutral", .vector, CIVector(x: 6500, y: 0))]
        ) { values in
            WhitePoint.adaptation(from: values.vector("inputNeutral"), to: values.vector("inputTargetNeutral"))
        },
        FilterDefinition(name: "CIVibrance", categories: still + [kCICategoryColorAdjustment], inputs: [image, input(kCIInputAmountKey, .number, 0.0)]) {
            values in
            let amount = values.number(kCIInputAmountKey)
            guard let image = values.image else { return nil }
            return amount == 0 ? image : image.with(.curve(image.recipe, .vibrance(amount)))
        },
        FilterDefinition(
            name: "CIHighlightShadowAdjust", categories: still + [kCICategoryColorAdjustment],
            inputs: [image, input(kCIInputRadiusKey, .number, 0.0), input("inputShadowAmount", .number, 0.0), input("inputHighlightAmount", .number, 1.0)]
        ) { values in
            guard let image = values.image else { return nil }
            return image.with(
                .highlightShadow(
                    image.recipe, radius: values.number(kCIInputRadiusKey), highlights: values.number("inputHighlightAmount"),
                    shadows: values.number("inputShadowAmount")))
        },
        // Apple's formula on unpremultiplied RGBA: s' = (dot(s, R), dot(s, G), dot(s, B), dot(s, A)) + bias.
        FilterDefinition(
            name: "CIColorMatrix", categories: still + [kCICategoryColorAdjustment],
            inputs: [
                image, input("inputRVector", .vector, CIVector(x: 1, y: 0, z: 0, w: 0)), input("inputGVector", .vector, CIVector(x: 0, y: 1, z: 0, w: 0)),
                input("inputBVector", .vector, CIVector(x: 0, y: 0, z: 1, w: 0)), input("inputAVector", .vector, CIVector(x: 0, y: 0, z: 0, w: 1)),
                input("inputBiasVector", .vector, CIVector(x: 0, y: 0, z: 0, w: 0)),
            ]
        ) { values in
            guard let image = values.image else { return nil }
            let rows = ["inputRVector", "inputGVector", "inputBVector", "inputAVector"].map { key in
                (0..<4).map { Double(values.vector(key).value(at: $0)) }
            }
            let bias = (0..<4).map { Double(values.vector("inputBiasVector").value(at: $0)) }
            if rows[3] == [0, 0, 0, 1], bias[3] == 0, rows.prefix(3).allSatisfy({ $0[3] == 0 }) {
                return image.applyingMatrix(ColorMatrix(matrix: rows.prefix(3).map { Array($0.prefix(3)) }, bias: Array(bias.prefix(3))))
            }
            return image.with(.curve(image.recipe, .rgba(rows: rows, bias: bias)))
        },
    ]

    private static let colourEffects: [FilterDefinition] = [
        // The sepia matrix (.393 .769 .189 / .349 .686 .168 / .272 .534 .131), mixed with the
        // image by intensity.
        matrixFilter("CISepiaTone", kCICategoryColorEffect, [input(kCIInputIntensityKey, .number, 1.0)]) { values in
            ColorMatrix.identity.mixed(with: .sepia, by: values.number(kCIInputIntensityKey))
        },
        // Luminance times the colour (linear), mixed with the image by intensity.
        matrixFilter(
            "CIColorMonochrome", kCICategoryColorEffect,
            [input(kCIInputColorKey, .color, CIColor(red: 0.6, green: 0.45, blue: 0.3)), input(kCIInputIntensityKey, .number, 1.0)]
        ) { values in
            let tint = values.color(kCIInputColorKey).linearComponents
            return ColorMatrix.identity.mixed(with: ColorMatrix.luminance.then(.gains(tint[0], tint[1], tint[2])), by: values.number(kCIInputIntensityKey))
        },
        // Darkens toward the corners: 1 − intensity × smoothstep(d / (radius × half the
        // diagonal)), d the distance from the extent's centre.
        FilterDefinition(
            name: "CIVignette", categories: still + [kCICategoryColorEffect],
            inputs: [image, input(kCIInputIntensityKey, .number, 0.0), input(kCIInputRadiusKey, .number, 1.0)]
        ) { values in
            guard let image = values.image else { return nil }
            let extent = image.extent
            guard !extent.isInfinite, !extent.isNull else { return image }
            let halfDiagonal = (extent.width * extent.width + extent.height * extent.height).squareRoot() / 2
            return image.with(
                .vignette(
                    image.recipe, center: CGPoint(x: extent.midX, y: extent.midY), radius: values.number(kCIInputRadiusKey) * halfDiagonal,
                    intensity: values.number(kCIInputIntensityKey)))
        },
    ]

    /// The eight photo effects: Apple's are undocumented lookup tables; these are matrices of
    /// the same character (see `docs/core-image.md`).
    private static let photoEffects: [FilterDefinition] = [
        ("CIPhotoEffectMono", ColorMatrix.luminance),
        ("CIPhotoEffectNoir", ColorMatrix.luminance.then(.contrast(1.35, pivot: 0.18))),
        ("CIPhotoEffectTonal", ColorMatrix.luminance.then(.contrast(0.9, pivot: 0.18)).then(.brightness(0.01))),
        ("CIPhotoEffectChrome", ColorMatrix.saturation(1.25).then(.contrast(1.1, pivot: 0.18))),
        ("CIPhotoEffectFade", ColorMatrix.saturation(0.75).then(.contrast(0.85, pivot: 0.18)).then(.brightness(0.03))),
        ("CIPhotoEffectInstant", ColorMatrix.saturation(0.85).then(.gains(1.08, 1, 0.86)).then(.brightness(0.02))),
        ("CIPhotoEffectProcess", ColorMatrix.saturation(0.9).then(.gains(0.93, 1, 1.1)).then(.contrast(1.05, pivot: 0.18))),
        ("CIPhotoEffectTransfer", ColorMatrix.saturation(0.9).then(.gains(1.1, 1.02, 0.88)).then(.contrast(1.05, pivot: 0.18))),
    ].map { name, matrix in
        matrixFilter(name, kCICategoryColorEffect, [input("inputExtrapolate", .number, false)]) { _ in matrix }
    }

    private static let detail: [FilterDefinition] = [
        // inputRadius is the blur's standard deviation.
        FilterDefinition(name: "CIGaussianBlur", categories: still + [kCICategoryBlur], inputs: [image, input(kCIInputRadiusKey, .number, 10.0)]) {
            values in
            values.image?.applyingGaussianBlur(sigma: values.number(kCIInputRadiusKey))
        },
        // Luminance detail (the image minus its blur of standard deviation radius) added back
        // × sharpness.
        FilterDefinition(
            name: "CISharpenLuminance", categories: still + [kCICategorySharpen],
            inputs: [image, input(kCIInputSharpnessKey, .number, 0.4), input(kCIInputRadiusKey, .number, 1.69)]
        ) { values in
            guard let image = values.image else { return nil }
            return image.with(
                .sharpen(image.recipe, sigma: values.number(kCIInputRadiusKey), intensity: values.number(kCIInputSharpnessKey), luminanceOnly: true))
        },
        // x + intensity × (x − blur(x, radius)).
        FilterDefinition(
            name: "CIUnsharpMask", categories: still + [kCICategorySharpen],
            inputs: [image, input(kCIInputRadiusKey, .number, 2.5), input(kCIInputIntensityKey, .number, 0.5)]
        ) { values in
            guard let image = values.image else { return nil }
            return image.with(
                .sharpen(image.recipe, sigma: values.number(kCIInputRadiusKey), intensity: values.number(kCIInputIntensityKey), luminanceOnly: false))
        },
    ]

    private static let geometry: [FilterDefinition] = [
        FilterDefinition(
            name: "CICrop", categories: still + [kCICategoryGeometryAdjustment],
            inputs: [image, input("inputRectangle", .vector, CIVector(x: -8.98847e307, y: -8.98847e307, z: 1.79769e308, w: 1.79769e308))]
        ) { values in
            values.image?.cropped(to: values.vector("inputRectangle").cgRectValue)
        },
        FilterDefinition(
            name: "CIAffineTransform", categories: still + [kCICategoryGeometryAdjustment],
            inputs: [image, input(kCIInputTransformKey, .transform, CGAffineTransform.identity)]
        ) { values in
            values.image?.transformed(by: values.transform(kCIInputTransformKey))
        },
        // Rotated by angle (radians, counterclockwise) about the centre and scaled up just
        // enough to fill the original extent, then cropped to it.
        FilterDefinition(name: "CIStraightenFilter", categories: still + [kCICategoryGeometryAdjustment], inputs: [image, input(kCIInputAngleKey, .number, 0.0)]) {
            values in
            guard let image = values.image else { return nil }
            let angle = values.number(kCIInputAngleKey)
            let extent = image.extent
            guard angle != 0, !extent.isInfinite, !extent.isNull else { return image }
            let (w, h) = (Double(extent.width), Double(extent.height))
            let (c, s) = (abs(cos(angle)), abs(sin(angle)))
            let scale = max((w * c + h * s) / w, (w * s + h * c) / h)
            let t = CGAffineTransform(translationX: -extent.midX, y: -extent.midY)
                .concatenating(CGAffineTransform(rotationAngle: angle))
                .concatenating(CGAffineTransform(scaleX: scale, y: scale))
                .concatenating(CGAffineTransform(translationX: extent.midX, y: extent.midY))
            // Clamped first, so the corners sample the image's edge, never transparency.
            return image.clampedToExtent().transformed(by: t).cropped(to: extent)
        },
        FilterDefinition(
            name: "CISourceOverCompositing", categories: still + [kCICategoryCompositeOperation],
            inputs: [image, input(kCIInputBackgroundImageKey, .image)]
        ) { values in
            guard let image = values.image, let background = values.image(kCIInputBackgroundImageKey) else { return nil }
            return image.composited(over: background)
        },
    ]
}

extension ColorMatrix {
    static let sepia = ColorMatrix(matrix: [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]], bias: [0, 0, 0])

    /// `(x − pivot) × c + pivot`.
    static func contrast(_ c: Double, pivot: Double) -> ColorMatrix {
        ColorMatrix(matrix: identity.scaled(c).matrix, bias: Array(repeating: pivot * (1 - c), count: 3))
    }
}
