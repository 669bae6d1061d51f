import SharingDependencies

/// A view of the element with a given identity in a shared collection, used by
/// `Array($collection)`.
///
/// The element is found by identity, so the view follows it when the collection is
/// reordered. Once the element is removed, reads return its last value and writes are
/// dropped.
final class IdentifiedElementReference<Base: MutableCollection>: SharedReference,
  @unchecked Sendable
where Base.Element: Identifiable {
  // Unchecked: the identity is immutable; 'cache' is guarded by its lock.
  private let base: any SharedReference<Base>
  private let id: Base.Element.ID
  /// The element's last value, and its index then, tried first to find it again.
  private let cache: Locked<(element: Base.Element, index: Base.Index?)>

  init(base: any SharedReference<Base>, element: Base.Element, index: Base.Index) {
    self.base = base
    self.id = element.id
    self.cache = Locked((element, index))
  }

  var root: any SharedRoot { base.root }

  func read() -> Base.Element {
    let collection = base.read()
    guard let index = index(in: collection) else { return cache.withLock { $0.element } }
    let element = collection[index]
    cache.withLock { $0 = (element, index) }
    return element
  }

  func modify(_ body: (inout Base.Element) -> Bool) {
    base.modify { (collection: inout Base) in
      guard let index = index(in: collection) else {
        var detached = cache.withLock { $0.element }
        return body(&detached)
      }
      let stands = body(&collection[index])
      cache.withLock { $0 = (collection[index], index) }
      return stands
    }
  }

  private func index(in collection: Base) -> Base.Index? {
    if let hint = cache.withLock({ $0.index }),
      collection.indices.contains(hint),
      collection[hint].id == id
    {
      return hint
    }
    return collection.firstIndex { $0.id == id }
  }

  var description: String { "\(base.description)[id: \(id)]" }
}
