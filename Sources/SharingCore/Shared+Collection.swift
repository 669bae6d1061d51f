extension Shared
where Value: MutableCollection & RangeReplaceableCollection, Value.Element: Identifiable {
  /// Derives a shared optional value for the element with the given identity.
  ///
  /// ```swift
  /// guard let todo = Shared($todos[id: todoID]) else { return }
  /// todo  // Shared<Todo>
  /// ```
  ///
  /// Writing `nil` removes the element; writing a value replaces it, or appends it when the
  /// collection has no element with that identity.
  ///
  /// - Parameter id: The identity of the element.
  public subscript(id id: Value.Element.ID) -> Shared<Value.Element?> {
    Shared<Value.Element?>(
      reference: IdentifiedOptionalElementReference(base: reference.resolved, id: id)
    )
  }
}

extension RangeReplaceableCollection {
  /// Creates a collection of shared elements from a shared collection of identifiable
  /// elements.
  ///
  /// ```swift
  /// for todo in Array($todos) {  // [Shared<Todo>]
  ///   TodoRow(todo: todo)
  /// }
  /// ```
  ///
  /// Each element follows its identity, so it stays correct when the collection is
  /// reordered; once removed from the collection, it keeps its last value.
  ///
  /// - Parameter shared: A shared collection.
  public init<Base: MutableCollection>(_ shared: Shared<Base>)
  where Element == Shared<Base.Element>, Base.Element: Identifiable {
    self.init(elementReferences(of: shared.reference).map { Shared(reference: $0) })
  }

  /// Creates a collection of readers from a shared reader of a collection of identifiable
  /// elements.
  ///
  /// - Parameter shared: A reader of a collection.
  public init<Base: MutableCollection>(_ shared: SharedReader<Base>)
  where Element == SharedReader<Base.Element>, Base.Element: Identifiable {
    self.init(elementReferences(of: shared.reference).map { SharedReader(reference: $0) })
  }
}

/// A reference to each element of a collection, found by its identity.
private func elementReferences<Base: MutableCollection>(
  of base: SharedReference<Base>
) -> [SharedReference<Base.Element>] where Base.Element: Identifiable {
  let base = base.resolved
  let collection = base.read()
  return zip(collection.indices, collection).map { index, element in
    IdentifiedElementReference(base: base, element: element, index: index)
  }
}
