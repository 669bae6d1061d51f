import SharingCore

extension FeatureTester {
  /// Makes the state an action produced, `actual`, the current state, checks it against the
  /// state expected from the one before, and forgets the action's snapshots so the next step
  /// starts from the current state.
  func verify(
    _ actual: State,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: CallSite
  ) {
    let previous = state
    state = actual
    defer { tracker.reset() }
    let untouched = tracker.expectedDumps()
    var expected = previous
    do {
      try tracker.base.assert { try updateStateToExpectedResult?(&expected) }
    } catch {
      location.report(error)
      return
    }
    // Read after the assertion: a closure that writes shared state has described a
    // change even when the action made none.
    let sharedStateChanged = tracker.hasChanges
    let comparison = DumpComparison(expected: expected, actual: actual, tracker: tracker.base)
    if !comparison.isEqual {
      location.report(
        comparison.message(
          title: updateStateToExpectedResult == nil
            ? "State was not expected to change, but a change occurred"
            : "A state change does not match expectation",
          undetected: """
            A state change does not match expectation, but no difference was detected in \
            the dumps of the expected and actual state.
            """
        )
      )
      return
    }
    // Outside an assertion both sides read current shared values, so this compares the
    // state the closure could change as a value.
    if updateStateToExpectedResult != nil, !sharedStateChanged, expected == previous {
      location.report(
        """
        Expected state to change, but no change occurred.

        The trailing closure made no observable modifications to state. If no change to \
        state is expected, omit the trailing closure.
        """
      )
      return
    }
    for failure in tracker.failures(untouched: untouched) {
      location.report(failure)
    }
  }
}
