/// A use of a key by a shared value: what it asks of the root that holds the key's value,
/// wherever that root is found or created.
struct KeyUse<Value: Sendable> {
  let key: any SharedReaderKey<Value>
  /// The key to save through; `nil` for a reader, which saves through ``key`` if it can.
  let saver: (any SharedKey<Value>)?
  /// Where the declaration gives the initial value as its default, to report a key used with
  /// two value types; `nil` when the initial value is the value already known (`require:`,
  /// `load(_:)`), which a new root holds without loading.
  let site: CallSite?
  /// The store that keeps the key's roots, if it keeps them
  /// (``SharedReaderKey/_referenceStore``): it is their registry, and writes are not saved.
  let store: _ReferenceStore?

  init(_ key: any SharedReaderKey<Value>, saver: (any SharedKey<Value>)?, site: CallSite?) {
    self.key = key
    self.saver = saver
    self.site = site
    self.store = key._referenceStore
  }

  /// Whether a new root loads its value from the store: one that starts from a default does.
  var loading: Bool { site != nil }

  /// The root of the value the key persists, in the current dependency scope: the one the
  /// key's store keeps, or the one the scope's registry holds; created if there is none.
  ///
  /// - Parameter initialValue: The value a new root starts from; not evaluated when the key
  ///   already has a root, as the first holder's value wins.
  func root(initialValue: () -> Value) -> RootReference<Value> {
    if let store { return store.root(for: self, initialValue: initialValue) }
    return PersistentReferences.current.root(for: self, initialValue: initialValue)
  }
}

/// Where a shared value is declared.
struct CallSite: Sendable, CustomStringConvertible {
  let fileID: StaticString
  let line: UInt

  var description: String { "\(fileID):\(line)" }
}
