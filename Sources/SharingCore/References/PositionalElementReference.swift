import SharingDependencies

/// A view of the element at one position of a shared collection, used by `Array($collection)`
/// for elements without an identity.
///
/// Once the collection is shorter than the position, reads return the last value seen and
/// writes change that copy, as swift-sharing's views of removed elements do.
final class PositionalElementReference<Base: MutableCollection & RandomAccessCollection>:
  SharedReference, Sendable
{
  private let base: any SharedReference<Base>
  private let offset: Int
  private let lastElement: Locked<Base.Element>

  init(base: any SharedReference<Base>, offset: Int, element: Base.Element) {
    self.base = base
    self.offset = offset
    self.lastElement = Locked(element)
  }

  var root: any SharedRoot { base.root }

  func read() -> Base.Element {
    let collection = base.read()
    guard let index = index(in: collection) else { return lastElement.withLock { $0 } }
    let element = collection[index]
    lastElement.withLock { $0 = element }
    return element
  }

  func modify(_ body: (inout Base.Element) -> Bool) {
    // NB: The base's write holds the root's lock, so the copy taken from 'lastElement' for a
    //     detached element cannot change while the body runs.
    base.modify { (collection: inout Base) in
      let index = index(in: collection)
      var element = index.map { collection[$0] } ?? lastElement.withLock { $0 }
      let stands = body(&element)
      if let index { collection[index] = element }
      lastElement.withLock { $0 = element }
      return stands
    }
  }

  private func index(in collection: Base) -> Base.Index? {
    guard offset < collection.count else { return nil }
    return collection.index(collection.startIndex, offsetBy: offset)
  }

  var description: String { "\(base.description)[\(offset)]" }
}
