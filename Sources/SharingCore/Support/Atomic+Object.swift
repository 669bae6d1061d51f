import Synchronization

extension Atomic {
  /// The object this atomic holds, after storing one made by `make` if it holds none.
  ///
  /// When two threads store at once, the first stored wins and the other's object is
  /// released: every caller gets the same object. The atomic holds it retained.
  func storeIfNil<Object: AnyObject>(
    _ make: () -> Object
  ) -> Unmanaged<Object> where Value == Unmanaged<Object>? {
    if let existing = load(ordering: .acquiring) { return existing }
    let created = Unmanaged.passRetained(make())
    let (exchanged, original) = compareExchange(
      expected: nil,
      desired: created,
      successOrdering: .acquiringAndReleasing,
      failureOrdering: .acquiring
    )
    guard !exchanged, let original else { return created }
    created.release()
    return original
  }
}
