/// A step of an alignment between two sequences.
enum EditStep: Equatable, Sendable {
  /// Elements at these offsets of the first and second sequence correspond.
  case both(Int, Int)
  /// The element at this offset of the first sequence has no counterpart.
  case first(Int)
  /// The element at this offset of the second sequence has no counterpart.
  case second(Int)
}

/// The steps that turn `first` into `second`, from the standard library's Myers difference;
/// in each changed region, removals come first.
///
/// While `pairs` holds for a region's next removal and insertion, from its start, they are
/// one step: an element changed in place, diffed rather than printed twice.
func editScript<Element: Equatable>(
  _ first: [Element],
  _ second: [Element],
  pairing pairs: (Int, Int) -> Bool = { _, _ in false }
) -> [EditStep] {
  let difference = second.difference(from: first)
  var (removed, inserted) = (Set<Int>(), Set<Int>())
  for case .remove(let offset, _, _) in difference { removed.insert(offset) }
  for case .insert(let offset, _, _) in difference { inserted.insert(offset) }
  var steps: [EditStep] = []
  var (i, j) = (0, 0)
  // Whether the current changed region, from its start, is all pairs.
  var isPairing = true
  while i < first.count || j < second.count {
    let (isRemoved, isInserted) = (removed.contains(i), inserted.contains(j))
    if isRemoved, isInserted, isPairing, pairs(i, j) {
      steps.append(.both(i, j))
      (i, j) = (i + 1, j + 1)
    } else if isRemoved {
      steps.append(.first(i))
      i += 1
      isPairing = false
    } else if isInserted {
      steps.append(.second(j))
      j += 1
      isPairing = false
    } else {
      steps.append(.both(i, j))
      (i, j) = (i + 1, j + 1)
      isPairing = true
    }
  }
  return steps
}
