import Foundation

/// A comparable snapshot of what user defaults hold for a key, to notice that it changed.
enum StoredDefaultsValue: Equatable {
  case missing
  case bool(Bool)
  case integer(Int)
  case double(Double)
  case string(String)
  case data(Data)
  case date(Date)
  /// Arrays, dictionaries and anything else, as an XML property list or a description.
  case other(String)

  init(_ object: Any?) {
    switch object {
    case nil: self = .missing
    case let value as Bool: self = .bool(value)
    case let value as Int: self = .integer(value)
    case let value as Double: self = .double(value)
    case let value as String: self = .string(value)
    case let value as Data: self = .data(value)
    case let value as Date: self = .date(value)
    case let value?:
      let xml = try? PropertyListSerialization.data(
        fromPropertyList: value,
        format: .xml,
        options: 0
      )
      self = .other(xml.map { String(decoding: $0, as: UTF8.self) } ?? String(reflecting: value))
    }
  }

  /// Whether the value is small enough (4 KB at most) to read often.
  var isSmall: Bool {
    switch self {
    case .string(let text), .other(let text): text.utf8.count <= 4_096
    case .data(let data): data.count <= 4_096
    default: true
    }
  }
}
