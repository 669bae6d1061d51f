extension Shared {
  /// The identity of the root this shared value uses now: equal for shared values that read
  /// and write one value (copies, uses of one key, and values derived from one root), so that
  /// dumps can mark repeats as swift-sharing's do.
  package var referenceIdentity: ObjectIdentifier { ObjectIdentifier(reference.root) }
}

extension SharedReader {
  /// The identity of the reference this reader uses now; see ``Shared/referenceIdentity``.
  package var referenceIdentity: ObjectIdentifier { ObjectIdentifier(reference.root) }
}
