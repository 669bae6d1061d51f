extension FeatureTester {
  /// Sends an action to a feature whose actions may run asynchronously, and asserts on how
  /// it changed the state.
  ///
  /// ```swift
  /// await tester.send(.refreshButtonTapped) {
  ///   $0.$stats.withLock { $0 = Stats() }
  /// }
  /// ```
  ///
  /// See ``send(_:assert:fileID:filePath:line:column:)`` for the assertions made.
  ///
  /// - Parameters:
  ///   - action: The action to run.
  ///   - updateStateToExpectedResult: A closure that applies the expected changes to the
  ///     state from before the action. Omit it when the action changes nothing.
  ///   - fileID: The file ID of the call site.
  ///   - filePath: The file path of the call site.
  ///   - line: The line of the call site.
  ///   - column: The column of the call site.
  ///   - isolation: The actor the reducer runs on; inferred from the caller.
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    var next = state
    switch reducer {
    case .sync(let reduce):
      tracker.track { reduce(&next, action) }
    case .async(let reduce):
      await tracker.track { await reduce(&next, action) }
    }
    verify(next, updateStateToExpectedResult, at: location)
  }
}
