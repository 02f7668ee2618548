import Foundation

/// An affine map of linear RGB: `rgb' = matrix × rgb + bias`, alpha kept. On premultiplied
/// pixels it is `c' = matrix × c + bias × alpha`, still linear, so a chain of colour filters
/// renders as one matrix (``then(_:)``).
struct ColorMatrix: Sendable, Equatable {
    /// Three rows of three.
    var matrix: [[Double]]
    var bias: [Double]

    static let identity = ColorMatrix(matrix: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], bias: [0, 0, 0])

    /// Each channel multiplied by its gain.
    static func gains(_ r: Double, _ g: Double, _ b: Double) -> ColorMatrix {
        ColorMatrix(matrix: [[r, 0, 0], [0, g, 0], [0, 0, b]], bias: [0, 0, 0])
    }

    /// Every row the luminance weights: grey of the same luminance.
    static let luminance = ColorMatrix(matrix: Array(repeating: Colorimetry.luma, count: 3), bias: [0, 0, 0])

    /// Saturation `s`: grey at 0, unchanged at 1, a mix (or beyond) between.
    static func saturation(_ s: Double) -> ColorMatrix {
        identity.scaled(s).adding(luminance.scaled(1 - s))
    }

    /// `(x − 0.5) × c + 0.5`.
    static func contrast(_ c: Double) -> ColorMatrix {
        ColorMatrix(matrix: identity.scaled(c).matrix, bias: Array(repeating: 0.5 * (1 - c), count: 3))
    }

    /// `x + b`.
    static func brightness(_ b: Double) -> ColorMatrix {
        ColorMatrix(matrix: identity.matrix, bias: [b, b, b])
    }

    /// A rotation of `angle` radians about the grey axis (Rodrigues' formula).
    static func hueRotation(_ angle: Double) -> ColorMatrix {
        let (c, s) = (cos(angle), sin(angle))
        let k = 1 / 3.0, q = (1 / 3.0).squareRoot()
        let m = [
            [c + (1 - c) * k, (1 - c) * k - q * s, (1 - c) * k + q * s],
            [(1 - c) * k + q * s, c + (1 - c) * k, (1 - c) * k - q * s],
            [(1 - c) * k - q * s, (1 - c) * k + q * s, c + (1 - c) * k],
        ]
        return ColorMatrix(matrix: m, bias: [0, 0, 0])
    }

    /// `self` applied first, then `next`.
    func then(_ next: ColorMatrix) -> ColorMatrix {
        var product = [[Double]](repeating: [0, 0, 0], count: 3)
        var bias = [0.0, 0, 0]
        for row in 0..<3 {
            for column in 0..<3 {
                product[row][column] = (0..<3).reduce(0) { $0 + next.matrix[row][$1] * matrix[$1][column] }
            }
            bias[row] = (0..<3).reduce(next.bias[row]) { $0 + next.matrix[row][$1] * self.bias[$1] }
        }
        return ColorMatrix(matrix: product, bias: bias)
    }

    /// Every coefficient and the bias times `factor`.
    func scaled(_ factor: Double) -> ColorMatrix {
        ColorMatrix(matrix: matrix.map { $0.map { $0 * factor } }, bias: bias.map { $0 * factor })
    }

    /// The element-wise sum.
    func adding(_ other: ColorMatrix) -> ColorMatrix {
        ColorMatrix(
            matrix: zip(matrix, other.matrix).map { zip($0, $1).map(+) }, bias: zip(bias, other.bias).map(+))
    }

    /// A mix: `self` at 0, `other` at 1.
    func mixed(with other: ColorMatrix, by amount: Double) -> ColorMatrix {
        scaled(1 - amount).adding(other.scaled(amount))
    }

    /// Applied to one linear pixel (tests and constant colours).
    func apply(_ rgb: [Double]) -> [Double] {
        (0..<3).map { row in (0..<3).reduce(bias[row]) { $0 + matrix[row][$1] * rgb[$1] } }
    }
}
