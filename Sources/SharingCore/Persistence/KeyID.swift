/// The identity of a key, as a dictionary key.
struct KeyID: Hashable, Sendable {
  // NB: The identity lives in one object: a registry copies its keys into and out of its
  //     dictionaries several times per new reference, and copying an 'any Hashable' copies
  //     the identity through its value witnesses each time. Not an 'AnyHashable': its
  //     equality casts through the runtime and looks up the metadata of an optional identity,
  //     on every comparison a dictionary lookup makes.
  private let identity: KeyIdentity

  init(_ key: some SharedReaderKey) {
    self.identity = TypedKeyIdentity(key.id)
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    // NB: Hashes first: identities that differ almost always differ in hash.
    lhs.identity === rhs.identity
      || (lhs.identity.hash == rhs.identity.hash && lhs.identity.isEqual(to: rhs.identity))
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(identity.hash)
  }
}

/// A key's identity and its hash.
private class KeyIdentity: @unchecked Sendable {
  // NB: Unchecked: immutable; the only subclass holds a key's identity, which keys compute
  //     as 'Sendable' values in practice ('Hashable' does not imply 'Sendable').
  let hash: Int

  init(hash: Int) {
    self.hash = hash
  }

  /// Whether `other` is an identity of the same type, equal to this one.
  func isEqual(to other: KeyIdentity) -> Bool {
    preconditionFailure("Subclass responsibility")
  }
}

/// A key's identity of type `ID`.
private final class TypedKeyIdentity<ID: Hashable>: KeyIdentity, @unchecked Sendable {
  // NB: Unchecked: see 'KeyIdentity'.
  let id: ID

  init(_ id: ID) {
    self.id = id
    super.init(hash: id.hashValue)
  }

  override func isEqual(to other: KeyIdentity) -> Bool {
    // NB: Not a cast, which looks up the metadata of the generic class: identities of the
    //     same class are identities of the same type.
    guard type(of: other) == type(of: self) else { return false }
    return id == unsafeDowncast(other, to: TypedKeyIdentity<ID>.self).id
  }
}
