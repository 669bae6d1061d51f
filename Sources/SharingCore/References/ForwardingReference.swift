/// A reference that views another reference through a projection.
///
/// Derived references (``KeyPathReference``, ``UnwrappedReference``, …) and the handles of
/// keyed shared values forward observation and persistence to their base.
///
/// The base is the reference the shared value it was derived from used at that moment, and
/// it is read without following later redirections: assigning `$parent = other` re-points
/// `parent` and its copies, while values derived from it earlier keep the old reference.
@usableFromInline
class ForwardingReference<Base, Value>: SharedReference<Value>, @unchecked Sendable {
  // NB: Unchecked: the base is immutable and 'Sendable'; subclasses guard their own state.
  @usableFromInline let base: SharedReference<Base>

  init(base: SharedReference<Base>) {
    self.base = base
    super.init()
  }

  init(handleOf base: SharedReference<Base>) {
    self.base = base
    super.init(isHandle: true)
  }

  override final func addObserver(_ onChange: @escaping @Sendable () -> Void) -> ObserverToken {
    base.addObserver(onChange)
  }

  override final func notifyingObservers(of change: () -> Void) {
    base.notifyingObservers(of: change)
  }

  override final var persistenceSource: (any PersistenceSource)? {
    base.persistenceSource
  }

  override var identity: ObjectIdentifier { base.identity }
}

/// The reference a keyed ``Shared`` holds: it forwards to the key's shared root, and can
/// be redirected without affecting other holders of the key.
@usableFromInline
final class HandleReference<Value>: ForwardingReference<Value, Value>, @unchecked Sendable {
  @usableFromInline
  override init(base: SharedReference<Value>) {
    super.init(handleOf: base)
  }

  override func read() -> Value { base.read() }

  override func modify(_ body: (inout Value) -> Bool) {
    base.modify(body)
  }

  override func modifyBytes(at offset: Int, _ body: (UnsafeMutableRawPointer) -> Bool) {
    base.modifyBytes(at: offset, body)
  }

  override func readMember<Member>(at offset: Int, as type: Member.Type) -> Member {
    base.readMember(at: offset, as: type)
  }

  override var description: String { base.description }
}

/// A writable view of a part of another reference's value.
final class KeyPathReference<Base, Value>: ForwardingReference<Base, Value>, @unchecked Sendable {
  // NB: Unchecked: 'KeyPath' is not marked 'Sendable', but a key path is immutable.
  private let keyPath: WritableKeyPath<Base, Value>
  /// Where the part lives in the base value, when the key path names stored properties of
  /// structs (`\.middle.count`); `nil` for anything else (computed properties, classes).
  private let offset: Int?

  init(base: SharedReference<Base>, keyPath: WritableKeyPath<Base, Value>) {
    self.keyPath = keyPath
    // NB: Applying a key path to a generic value walks it in the runtime (about 50 ns); a
    //     stored property is reached directly at its offset, as `MemoryLayout` documents.
    self.offset = MemoryLayout<Base>.offset(of: keyPath)
    super.init(base: base)
  }

  // NB: A chain of stored members (`$state.profile.stats.count`) is read and written at
  //     the sum of their offsets in the root's storage, in one step, rather than by copying
  //     and projecting the value at each level.

  override func read() -> Value {
    guard let offset else { return base.read()[keyPath: keyPath] }
    return base.readMember(at: offset, as: Value.self)
  }

  override func modify(_ body: (inout Value) -> Bool) {
    guard let offset else { return base.modify { body(&$0[keyPath: keyPath]) } }
    base.modifyBytes(at: offset) { body(&$0.assumingMemoryBound(to: Value.self).pointee) }
  }

  override func modifyBytes(at offset: Int, _ body: (UnsafeMutableRawPointer) -> Bool) {
    guard let own = self.offset else { return super.modifyBytes(at: offset, body) }
    base.modifyBytes(at: own + offset, body)
  }

  override func readMember<Member>(at offset: Int, as type: Member.Type) -> Member {
    guard let own = self.offset else { return super.readMember(at: offset, as: type) }
    return base.readMember(at: own + offset, as: type)
  }

  override var description: String { "\(base.description)[dynamicMember: \(keyPath)]" }
}

/// A read-only view of a part, or a computed transformation, of another reference's value.
final class ReadOnlyReference<Base, Value>: ForwardingReference<Base, Value>,
  @unchecked Sendable
{
  // NB: Unchecked: the transform only captures immutable values (a key path or a
  //     user closure that the public API requires to be `@Sendable`).
  private let transform: (Base) -> Value
  // NB: A closure, formatted only for a description: formatting a key path costs
  //     microseconds, far more than deriving a reader.
  private let name: () -> String

  init(
    base: SharedReference<Base>,
    name: @escaping () -> String,
    transform: @escaping (Base) -> Value
  ) {
    self.transform = transform
    self.name = name
    super.init(base: base)
  }

  /// A read-only view of a part of the base's value.
  convenience init(base: SharedReference<Base>, keyPath: KeyPath<Base, Value>) {
    self.init(base: base, name: { "\(keyPath)" }) { $0[keyPath: keyPath] }
  }

  override func read() -> Value { transform(base.read()) }

  override func modify(_ body: (inout Value) -> Bool) {
    // NB: Unreachable from the public API, which only reads through this reference.
    var value = read()
    _ = body(&value)
  }

  override var description: String { "\(base.description).\(name())" }
}
