/// A read-only view of a part, or a computed transformation, of another reference's value:
/// `$reader.member`, `$value.read { … }`.
final class ReadOnlyReference<Base, Value>: SharedReference, @unchecked Sendable {
  // Unchecked: the transform only captures immutable values (a key path or a user closure that the
  // public API requires to be `@Sendable`).
  private let base: any SharedReference<Base>
  private let transform: (Base) -> Value
  /// Names the transformation in the description, formatted only when described.
  private let name: () -> String

  init(
    base: any SharedReference<Base>,
    name: @escaping () -> String,
    transform: @escaping (Base) -> Value
  ) {
    self.base = base
    self.name = name
    self.transform = transform
  }

  /// A read-only view of a part of the base's value.
  convenience init(base: any SharedReference<Base>, keyPath: KeyPath<Base, Value>) {
    self.init(base: base, name: { "\(keyPath)" }) { $0[keyPath: keyPath] }
  }

  var root: any SharedRoot { base.root }

  func read() -> Value { transform(base.read()) }

  /// Applies `body` to a copy of the value, which is dropped: readers have no `withLock`, so
  /// nothing calls this.
  func modify(_ body: (inout Value) -> Bool) {
    var value = read()
    _ = body(&value)
  }

  var description: String { "\(base.description).\(name())" }
}
