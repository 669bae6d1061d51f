import SharingDependencies

/// A view of a part of another reference's value, found again in the base's value at every
/// access: an optional's value (`Shared($optional)`), a collection's element by identity
/// (`Array($todos)`, `$todos[id:]`) or by position (`Array($scores)`), or a read-only
/// transformation (`$reader.member`, `$value.read { … }`). A struct's member is a
/// ``KeyPathReference``, which reads it in place.
///
/// A part the base's value no longer has (an optional now `nil`, a removed element) reads as
/// the last value seen, so a child feature holding the view never crashes after its parent
/// removes the part; a write to it changes that copy if the view keeps detached writes, and
/// is dropped otherwise.
final class ProjectionReference<Base, Value>: SharedReference, @unchecked Sendable {
  // Unchecked: the closures capture only immutable values (identities, positions, key paths, a
  // transformation the public API requires to be '@Sendable') and locks; 'last' is a lock.
  private let base: any SharedReference<Base>
  /// The part in the base's value; `nil` if the value has none now.
  private let part: (Base) -> Value?
  /// Applies a write to the part, in place in the base's value; returns `nil` if the value
  /// has no such part now. `nil` for a read-only view, whose writes go to a dropped copy.
  private let modifyPart: ((inout Base, (inout Value) -> Bool) -> Bool?)?
  /// The last value seen, for a part the base's value may lose: every initialiser whose
  /// `part` can return `nil` gives one, which `read()` and `modify(_:)` then unwrap.
  private let last: Locked<Value>?
  private let keepsDetachedWrites: Bool
  /// What the view adds to the base's description, formatted only when described.
  private let suffix: () -> String

  private init(
    base: any SharedReference<Base>,
    last: Value? = nil,
    keepsDetachedWrites: Bool = false,
    suffix: @escaping () -> String,
    part: @escaping (Base) -> Value?,
    modifyPart: ((inout Base, (inout Value) -> Bool) -> Bool?)?
  ) {
    self.base = base
    self.last = last.map(Locked.init)
    self.keepsDetachedWrites = keepsDetachedWrites
    self.suffix = suffix
    self.part = part
    self.modifyPart = modifyPart
  }

  var root: any SharedRoot { base.root }

  func read() -> Value {
    guard let value = part(base.read()) else { return last!.withLock { $0 } }
    last?.withLock { $0 = value }
    return value
  }

  func modify(_ body: (inout Value) -> Bool) {
    guard let modifyPart else {
      var dropped = read()
      _ = body(&dropped)
      return
    }
    base.modify { (whole: inout Base) in
      let stands = modifyPart(&whole) { value in
        let stands = body(&value)
        last?.withLock { $0 = value }
        return stands
      }
      if let stands { return stands }
      // NB: The base's write holds the root's lock, so the copy taken from 'last' cannot change
      //     while the body runs.
      var detached = last!.withLock { $0 }
      let detachedStands = body(&detached)
      if keepsDetachedWrites { last!.withLock { $0 = detached } }
      return detachedStands
    }
  }

  var description: String { base.description + suffix() }
}

extension ProjectionReference {
  /// A read-only view of the base's value transformed, named `name` in the description.
  convenience init(
    base: any SharedReference<Base>,
    name: @escaping () -> String,
    transform: @escaping (Base) -> Value
  ) {
    self.init(base: base, suffix: { ".\(name())" }, part: { .some(transform($0)) }, modifyPart: nil)
  }

  /// A read-only view of a part of the base's value.
  convenience init(base: any SharedReference<Base>, keyPath: KeyPath<Base, Value>) {
    self.init(base: base, name: { "\(keyPath)" }) { $0[keyPath: keyPath] }
  }

  /// A non-optional view of an optional value, made by ``Shared/init(_:)``; writes while the
  /// value is `nil` are dropped.
  convenience init(unwrapping base: any SharedReference<Value?>, initialValue: Value)
  where Base == Value? {
    self.init(base: base, last: initialValue, suffix: { "!" }, part: { $0 }) { optional, body in
      // NB: Mutated in place, through the optional: the base keeps its value while the body
      //     runs, for anything that reads it meanwhile.
      optional == nil ? nil : body(&optional!)
    }
  }

  /// The element of a collection with `element`'s identity, first looked for at `index`, so
  /// that it is followed when the collection is reordered; writes once it is removed are
  /// dropped.
  convenience init(base: any SharedReference<Base>, element: Value, index: Base.Index)
  where Base: MutableCollection, Value == Base.Element, Value: Identifiable {
    let id = element.id
    /// Where the element was last found, tried first to find it again.
    let hint = Locked<Base.Index>(index)
    let find = { (collection: Base) -> Base.Index? in
      let last = hint.withLock { $0 }
      if collection.indices.contains(last), collection[last].id == id { return last }
      let found = collection.firstIndex { $0.id == id }
      if let found { hint.withLock { $0 = found } }
      return found
    }
    self.init(
      base: base,
      last: element,
      suffix: { "[id: \(id)]" },
      part: { collection in find(collection).map { collection[$0] } },
      modifyPart: { collection, body in find(collection).map { body(&collection[$0]) } }
    )
  }

  /// The element at `offset` in a collection whose elements have no identity; once the
  /// collection is shorter, writes change the last value seen, as swift-sharing's views of
  /// removed elements do.
  convenience init(base: any SharedReference<Base>, offset: Int, element: Value)
  where Base: MutableCollection & RandomAccessCollection, Value == Base.Element {
    let index = { (collection: Base) -> Base.Index? in
      guard offset < collection.count else { return nil }
      return collection.index(collection.startIndex, offsetBy: offset)
    }
    self.init(
      base: base,
      last: element,
      keepsDetachedWrites: true,
      suffix: { "[\(offset)]" },
      part: { collection in index(collection).map { collection[$0] } },
      modifyPart: { collection, body in index(collection).map { body(&collection[$0]) } }
    )
  }

  /// The optional element of a collection with the given identity, made by
  /// ``Shared/subscript(id:)``: writing `nil` removes the element; writing a value replaces
  /// it, or appends it when absent.
  convenience init(base: any SharedReference<Base>, id: Base.Element.ID)
  where
    Base: MutableCollection & RangeReplaceableCollection, Base.Element: Identifiable,
    Value == Base.Element?
  {
    self.init(base: base, suffix: { "[id: \(id)]" }, part: { .some($0.first { $0.id == id }) }) {
      collection,
      body in
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
}
