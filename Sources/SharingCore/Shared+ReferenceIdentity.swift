extension Shared {
  /// The identity of the reference this shared value uses now: equal for shared values that
  /// read and write one value (copies, and uses of one key), so that dumps can mark repeats.
  package var referenceIdentity: ObjectIdentifier { reference.resolved.identity }
}

extension SharedReader {
  /// The identity of the reference this reader uses now; see ``Shared/referenceIdentity``.
  package var referenceIdentity: ObjectIdentifier { reference.resolved.identity }
}
