import Foundation
import Persistence

// What an app writes next to the code generated for Tests/Fixtures/models/Library.xcdatamodeld:
// the class of the `category` entity Chapter, and the transformer the `color` attribute names
// in its user info.

/// The class of `Chapter`, whose code generation is `category`: the plugin generates only its
/// properties.
public final class Chapter: ManagedObject {
  /// A member of the app's own, next to the generated ones.
  public var heading: String { "\(number). \(title ?? "Untitled")" }
}

/// The value type of `Book.color`.
public struct Color: Codable, Hashable, Sendable {
  public var red: Double
  public var green: Double
  public var blue: Double

  public init(red: Double, green: Double, blue: Double) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  public static let black = Color(red: 0, green: 0, blue: 0)
}

/// Stores a `Color` as three bytes.
public enum ColorTransformer: AttributeTransformer {
  public struct NotAColor: Error {}

  public static func encode(_ value: Color) throws -> Data {
    Data([value.red, value.green, value.blue].map { UInt8(max(0, min(255, ($0 * 255).rounded()))) })
  }

  public static func decode(_ data: Data) throws -> Color {
    guard data.count == 3 else { throw NotAColor() }
    let bytes = [UInt8](data)
    return Color(red: Double(bytes[0]) / 255, green: Double(bytes[1]) / 255, blue: Double(bytes[2]) / 255)
  }

  public static var defaultValue: Color { .black }
}
