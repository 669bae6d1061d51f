import SharingDependencies

/// A view of the element with a given identity in a shared collection, used by
/// `Array($collection)`.
///
/// The element is found by identity, so the view follows it when the collection is
/// reordered. Once the element is removed, reads return its last value and writes are
/// dropped.
final class IdentifiedElementReference<Base: MutableCollection>: ForwardingReference<
  Base, Base.Element
>, @unchecked Sendable
where Base.Element: Identifiable {
  // NB: Unchecked: 'cache' is guarded by its mutex; the identity is immutable.
  private let id: Base.Element.ID
  private let cache: Locked<Cache>

  private struct Cache {
    var element: Base.Element
    var index: Base.Index?
  }

  init(base: SharedReference<Base>, element: Base.Element, index: Base.Index) {
    self.id = element.id
    self.cache = Locked(Cache(element: element, index: index))
    super.init(base: base)
  }

  override func read() -> Base.Element {
    let collection = base.read()
    guard let index = index(in: collection) else { return cache.withLock { $0.element } }
    let element = collection[index]
    cache.withLock { $0 = Cache(element: element, index: index) }
    return element
  }

  override func modify(_ body: (inout Base.Element) -> Bool) {
    base.modify { (collection: inout Base) in
      guard let index = index(in: collection) else {
        var detached = cache.withLock { $0.element }
        return body(&detached)
      }
      let stands = body(&collection[index])
      cache.withLock { $0 = Cache(element: collection[index], index: index) }
      return stands
    }
  }

  /// The element's index, trying the last known index first.
  private func index(in collection: Base) -> Base.Index? {
    if let hint = cache.withLock({ $0.index }),
      collection.indices.contains(hint),
      collection[hint].id == id
    {
      return hint
    }
    return collection.firstIndex { $0.id == id }
  }

  override var description: String { "\(base.description)[id: \(id)]" }
}

/// A view of the optional element with a given identity in a shared collection, made by
/// ``Shared/subscript(id:)``. Writing `nil` removes the element; writing a value replaces
/// it, or appends it when absent.
final class IdentifiedOptionalElementReference<
  Base: MutableCollection & RangeReplaceableCollection
>: ForwardingReference<Base, Base.Element?>, @unchecked Sendable
where Base.Element: Identifiable {
  // NB: Unchecked: the identity is immutable.
  private let id: Base.Element.ID

  init(base: SharedReference<Base>, id: Base.Element.ID) {
    self.id = id
    super.init(base: base)
  }

  override func read() -> Base.Element? {
    base.read().first { $0.id == id }
  }

  override func modify(_ body: (inout Base.Element?) -> Bool) {
    base.modify { (collection: inout Base) in
      let index = collection.firstIndex { $0.id == id }
      var element = index.map { collection[$0] }
      let stands = body(&element)
      switch (index, element) {
      case (let index?, let element?): collection[index] = element
      case (let index?, nil): collection.remove(at: index)
      case (nil, let element?): collection.append(element)
      case (nil, nil): break
      }
      return stands
    }
  }

  override var description: String { "\(base.description)[id: \(id)]" }
}
