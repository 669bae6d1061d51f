extension SharedReference where Value: Sendable {
  /// A reference to the value `key` persists, in the current dependency scope: what a
  /// ``Shared`` or ``SharedReader`` created from the key holds.
  ///
  /// It is a handle of its own on the key's shared root, so that redirecting it (by
  /// `load(_:)` or by assigning a projected value) affects only its holder.
  ///
  /// - Parameters:
  ///   - saver: The key to save through, `nil` for a reader.
  ///   - loading: Whether a newly created root loads its value from the store.
  ///   - store: The key's identity, if its store keeps references, when the caller already
  ///     found out; `nil` to find out.
  ///   - site: Where the declaration gives `initialValue` as its default; `nil` when the
  ///     initial value is not a default.
  static func persisted(
    by key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    initialValue: () -> Value,
    loading: Bool = true,
    store: _ReferenceStore? = nil,
    site: CallSite?
  ) -> SharedReference<Value> {
    let root =
      if let storing = (store ?? key._referenceStore)?.id {
        storing.reference(
          persisting: key,
          saver: saver,
          initialValue: initialValue,
          loading: loading,
          site: site
        )
      } else {
        PersistentReferences.current.reference(
          for: key,
          saver: saver,
          initialValue: initialValue,
          loading: loading,
          site: site
        )
      }
    return root.makeHandle()
  }

  /// Makes every holder of this reference use the value `key` persists from now on, starting
  /// from `currentValue` if the key has no reference yet.
  func switchKey(
    to key: any SharedReaderKey<Value>,
    saver: (any SharedKey<Value>)?,
    keeping currentValue: Value
  ) {
    redirect(
      to: .persisted(
        by: key,
        saver: saver,
        initialValue: { currentValue },
        loading: false,
        site: nil
      )
    )
  }
}
