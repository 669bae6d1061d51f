import Foundation

#if os(Linux)
  /// The URL in a keyed archive of an `NSURL`, as Foundation stores a URL that is not a file's
  /// in user defaults, read without `NSKeyedUnarchiver`: on Linux it stops the program on an
  /// archive of another class, or on one whose references lead nowhere, rather than failing.
  ///
  /// Reads what `NSURL` archives: its string relative to its base (`NS.relative`), and its
  /// base (`NS.base`), a URL archived the same way or none.
  enum ArchivedURL {
    /// The URL `data` archives, or `nil` if it archives anything else.
    static func decode(_ data: Data) -> URL? {
      guard let archive = PropertyListBytes.parsed(data) as? [String: Any],
        let objects = archive["$objects"] as? [Any],
        let root = (archive["$top"] as? [String: Any])?["root"]
      else { return nil }
      return url(at: root, in: objects, depth: 0)
    }

    /// The URL the object `reference` names archives; `depth` counts the bases followed, so
    /// that bases that lead back to their URL end.
    private static func url(at reference: Any, in objects: [Any], depth: Int) -> URL? {
      guard depth < 16, let object = self.object(at: reference, in: objects) as? [String: Any],
        className(of: object, in: objects) == "NSURL",
        let relative = object["NS.relative"].flatMap({ string(at: $0, in: objects) })
      else { return nil }
      guard let base = object["NS.base"], self.object(at: base, in: objects) as? String != null
      else { return URL(string: relative) }
      return self.url(at: base, in: objects, depth: depth + 1).flatMap {
        URL(string: relative, relativeTo: $0)
      }
    }

    /// The string the object `reference` names: archived as itself, or as an `NSString`
    /// object (`NS.string`).
    private static func string(at reference: Any, in objects: [Any]) -> String? {
      switch object(at: reference, in: objects) {
      case let string as String:
        return string == null ? nil : string
      case let object as [String: Any]:
        guard ["NSString", "NSMutableString"].contains(className(of: object, in: objects)) else {
          return nil
        }
        return object["NS.string"] as? String
      default:
        return nil
      }
    }

    /// The name of the class of an archived object.
    private static func className(of object: [String: Any], in objects: [Any]) -> String? {
      let description = object["$class"].flatMap { self.object(at: $0, in: objects) }
      return (description as? [String: Any])?["$classname"] as? String
    }

    /// The object a reference names, or `nil` if it is not a reference or names nothing.
    private static func object(at reference: Any, in objects: [Any]) -> Any? {
      // NB: Foundation keeps the number of an archive's reference private; reflection shows it.
      let number = Mirror(reflecting: reference).children.first { $0.label == "value" }?.value
      guard String(describing: type(of: reference)).hasSuffix("KeyedArchiverUID"),
        let index = (number as? UInt32).map(Int.init), index < objects.count
      else { return nil }
      return objects[index]
    }

    /// What an archive holds in place of `nil`.
    private static let null = "$null"
  }
#endif
