/// A property wrapper for read-only access to shared state, optionally loaded from a store.
///
/// ```swift
/// // A child feature only needs to observe the option:
/// Child(isHapticsEnabled: SharedReader($isHapticsEnabled))
///
/// // A value that only an external store changes:
/// @SharedReader(.systemUptime) var uptime = 0
/// ```
///
/// A reader shares its reference with the ``Shared`` it was made from, and with every
/// shared value created from a key with the same identity.
@dynamicMemberLookup
@propertyWrapper
public struct SharedReader<Value> {
  @usableFromInline let box: SharedBox<Value>

  /// The reference this reader and its copies use now.
  var reference: any SharedReference<Value> { box.reference }

  @usableFromInline
  init(reference: any SharedReference<Value>) {
    self.box = SharedBox(reference)
  }

  /// Creates a reader of a constant value.
  ///
  /// - Parameter value: The value.
  public init(value: sending Value) {
    self.init(reference: RootReference(value: value))
  }

  /// A reader of a value that never changes, for previews and tests.
  ///
  /// ```swift
  /// SettingsView(isHapticsEnabled: .constant(true))
  /// ```
  ///
  /// - Parameter value: The value.
  /// - Returns: A reader of `value`.
  public static func constant(_ value: sending Value) -> Self {
    Self(value: value)
  }

  /// Creates a reader from another one, sharing its reference.
  ///
  /// - Parameter projectedValue: The reader to share.
  public init(projectedValue: SharedReader<Value>) {
    self = projectedValue
  }

  /// Creates a read-only view of a shared value.
  ///
  /// The reader keeps the reference `base` uses now: assigning `base`'s projected value
  /// later does not re-point the reader.
  ///
  /// - Parameter base: The shared value to read.
  public init(_ base: Shared<Value>) {
    self.init(reference: base.reference)
  }

  /// The current value.
  @inlinable
  public var wrappedValue: Value {
    box.read()
  }

  /// The reader itself, reached with `$` syntax.
  ///
  /// Assigning it makes this reader, and every copy of it, use another reference. Values
  /// derived from it earlier (`$value.member`, `$value.read { … }`, `SharedReader($value)`)
  /// keep reading the old one.
  public var projectedValue: SharedReader<Value> {
    get { self }
    nonmutating set { box.repoint(to: newValue.reference) }
  }
}

extension SharedReader: Sendable where Value: Sendable {}
