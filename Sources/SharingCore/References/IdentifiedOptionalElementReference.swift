/// A view of the optional element with a given identity in a shared collection, made by
/// ``Shared/subscript(id:)``. Writing `nil` removes the element; writing a value replaces
/// it, or appends it when absent.
final class IdentifiedOptionalElementReference<
  Base: MutableCollection & RangeReplaceableCollection
>: SharedReference, @unchecked Sendable
where Base.Element: Identifiable {
  // Unchecked: the identity is immutable.
  private let base: any SharedReference<Base>
  private let id: Base.Element.ID

  init(base: any SharedReference<Base>, id: Base.Element.ID) {
    self.base = base
    self.id = id
  }

  var root: any SharedRoot { base.root }

  func read() -> Base.Element? {
    base.read().first { $0.id == id }
  }

  func modify(_ body: (inout Base.Element?) -> Bool) {
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

  var description: String { "\(base.description)[id: \(id)]" }
}
