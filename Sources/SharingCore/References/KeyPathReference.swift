/// A writable view of a part of another reference's value: `$value.member`.
///
/// A key path that names stored properties of structs (`\.middle.count`) is applied as the
/// offset of the member in the value, which a root reads and writes in place; any other
/// (computed properties, classes) is applied to the value.
final class KeyPathReference<Base, Value>: SharedReference, @unchecked Sendable {
  // Unchecked: 'WritableKeyPath' is not marked 'Sendable', but a key path is immutable.
  private let base: any SharedReference<Base>
  private let keyPath: WritableKeyPath<Base, Value>
  /// Where the member lives in the base value, if the key path names stored properties.
  private let offset: Int?

  init(base: any SharedReference<Base>, keyPath: WritableKeyPath<Base, Value>) {
    self.base = base
    self.keyPath = keyPath
    self.offset = MemoryLayout<Base>.offset(of: keyPath)
  }

  var root: any SharedRoot { base.root }

  func read() -> Value {
    guard let offset else { return base.read()[keyPath: keyPath] }
    return base.readMember(at: offset, as: Value.self)
  }

  func modify(_ body: (inout Value) -> Bool) {
    guard let offset else { return base.modify { body(&$0[keyPath: keyPath]) } }
    base.modifyMember(at: offset, as: Value.self, body)
  }

  func appending<Member>(
    _ keyPath: WritableKeyPath<Value, Member>
  ) -> any SharedReference<Member> {
    KeyPathReference<Base, Member>(base: base, keyPath: self.keyPath.appending(path: keyPath))
  }

  var description: String { "\(base.description)[dynamicMember: \(keyPath)]" }
}

extension SharedReference {
  @usableFromInline
  func appending<Member>(
    _ keyPath: WritableKeyPath<Value, Member>
  ) -> any SharedReference<Member> {
    KeyPathReference(base: self, keyPath: keyPath)
  }

  func readMember<Member>(at offset: Int, as type: Member.Type) -> Member {
    member(at: offset, of: read())
  }

  func modifyMember<Member>(
    at offset: Int,
    as type: Member.Type,
    _ body: (inout Member) -> Bool
  ) {
    modify { withMember(at: offset, of: &$0, body) }
  }
}

/// The member stored `offset` bytes into `value`.
func member<Base, Member>(at offset: Int, of value: Base) -> Member {
  withUnsafePointer(to: value) {
    UnsafeRawPointer($0).load(fromByteOffset: offset, as: Member.self)
  }
}

/// Calls `body` with the member stored `offset` bytes into `value`, in place.
@inline(__always)
func withMember<Base, Member, R>(
  at offset: Int,
  of value: inout Base,
  _ body: (inout Member) -> R
) -> R {
  withUnsafeMutablePointer(to: &value) { pointer in
    body(
      &UnsafeMutableRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Member.self)
        .pointee
    )
  }
}
