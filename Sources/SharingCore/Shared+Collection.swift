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
      reference: ProjectionReference(base: reference, id: id)
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

extension RangeReplaceableCollection {
  /// Creates a collection of shared elements from a shared collection whose elements have no
  /// identity, such as numbers, or an `IdentifiedArray` of them.
  ///
  /// ```swift
  /// let scores = Array($scores)  // [Shared<Int>]
  /// scores[0].withLock { $0 += 1 }
  /// ```
  ///
  /// Each element follows its position. Once the collection no longer reaches that
  /// position, the element keeps its last value, and its own writes change only that copy.
  /// Elements that are `Identifiable` follow their identity instead.
  ///
  /// - Parameter shared: A shared collection.
  // The generic parameter is not named 'Base', so that documentation links tell this initializer
  // from the one for identifiable elements.
  @_disfavoredOverload
  public init<Elements: MutableCollection & RandomAccessCollection>(_ shared: Shared<Elements>)
  where Element == Shared<Elements.Element> {
    self.init(positionalReferences(of: shared.reference).map { Shared(reference: $0) })
  }

  /// Creates a collection of readers from a shared reader of a collection whose elements
  /// have no identity; each follows its position.
  ///
  /// - Parameter shared: A reader of a collection.
  @_disfavoredOverload
  public init<Elements: MutableCollection & RandomAccessCollection>(
    _ shared: SharedReader<Elements>
  ) where Element == SharedReader<Elements.Element> {
    self.init(positionalReferences(of: shared.reference).map { SharedReader(reference: $0) })
  }
}

/// A reference to each element of a collection, found by its identity.
private func elementReferences<Base: MutableCollection>(
  of base: any SharedReference<Base>
) -> [any SharedReference<Base.Element>] where Base.Element: Identifiable {
  let collection = base.read()
  return zip(collection.indices, collection).map { index, element in
    ProjectionReference(base: base, element: element, index: index)
  }
}

/// A reference to each position of a collection.
private func positionalReferences<Base: MutableCollection & RandomAccessCollection>(
  of base: any SharedReference<Base>
) -> [any SharedReference<Base.Element>] {
  base.read().enumerated().map { offset, element in
    ProjectionReference(base: base, offset: offset, element: element)
  }
}
