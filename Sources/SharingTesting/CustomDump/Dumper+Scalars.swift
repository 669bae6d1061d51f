import Foundation
import SharingCore

extension Dumper {
  /// The text of a value that prints without children, or `nil` for other values.
  static func scalarText(_ value: Any) -> String? {
    switch value {
    case let value as any StringProtocol: StringLiteral.render(value)
    case let value as StaticString: StringLiteral.render(value.description)
    case let value as Character: StringLiteral.quoted(String(value))
    case let value as Unicode.Scalar: StringLiteral.quoted(String(value))
    case is Bool, is any BinaryInteger, is any BinaryFloatingPoint, is Decimal:
      String(describing: value)
    case let value as Date:
      "Date(\(value.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))))"
    case let value as URL: "URL(\(value.absoluteString))"
    case let value as UUID: "UUID(\(value.uuidString))"
    case let value as Data: "Data(\(value.count) \(value.count == 1 ? "byte" : "bytes"))"
    case let value as any Any.Type: "\(TypeName.of(value)).self"
    default: nil
    }
  }
}
