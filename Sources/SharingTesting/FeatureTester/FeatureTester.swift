import SharingCore
import SharingDependencies

/// Tests a value-type feature exhaustively, including the ``/SharingCore/Shared`` state it holds.
///
/// Give the tester the feature's initial state and the function that runs its actions.
/// Each ``send(_:assert:fileID:filePath:line:column:)`` runs an action, then applies the
/// trailing closure to the state from before the action, and expects the result to equal
/// the state after it:
///
/// ```swift
/// let tester = FeatureTester(initialState: TabsState(stats: Shared(value: Stats()))) {
///   $0.reduce($1)
/// }
/// tester.send(.selectTab(.profile)) {
///   $0.currentTab = .profile
///   $0.$stats.withLock { $0.increment() }
/// }
/// ```
///
/// Shared state is asserted on like any other state. The action runs under a
/// ``SharedChangeTracker``, and the trailing closure inside its assertion, so a shared value
/// written in the closure changes the value it had before the action: describe its change
/// incrementally (`$0.$stats.withLock { $0.increment() }`, also through any copy, such as
/// `$0.counter.$stats`) or absolutely (`$0.$stats.withLock { $0 = Stats(count: 1) }`).
///
/// Each step fails the test, at the `send` call, when:
/// - The state after the action differs from the expected state:
///   `A state change does not match expectation: …` followed by a diff (`−` expected,
///   `+` actual), or `State was not expected to change, but a change occurred: …` when there
///   is no trailing closure.
/// - The trailing closure changed nothing: `Expected state to change, but no change
///   occurred.` This is not reported when shared state changed, in the action or in the
///   closure: a closure that only describes a shared change leaves the plain state as it
///   was.
/// - A shared value that the state does not hold changed unasserted.
///
/// After each step the tester's ``state`` is the state the action produced, and the next
/// step starts from it.
///
/// > Note: The tester is not `Sendable`: use it from the test that created it.
public final class FeatureTester<State: Equatable, Action> {
  /// The feature's current state.
  public internal(set) var state: State

  let reducer: Reducer
  let tracker = SharedChangeTracker()

  /// The function that runs an action.
  enum Reducer {
    case sync((inout State, Action) -> Void)
    case async((inout State, Action) async -> Void)
  }

  /// Creates a tester of a feature whose actions run synchronously.
  ///
  /// - Parameters:
  ///   - initialState: The state the feature starts in.
  ///   - reduce: A function that runs an action by mutating the state.
  public init(
    initialState: State,
    reduce: @escaping (_ state: inout State, _ action: Action) -> Void
  ) {
    self.state = initialState
    self.reducer = .sync(reduce)
  }

  /// Creates a tester of a feature whose actions run asynchronously.
  ///
  /// Send actions to it with ``send(_:assert:fileID:filePath:line:column:isolation:)``.
  ///
  /// - Parameters:
  ///   - initialState: The state the feature starts in.
  ///   - reduce: A function that runs an action by mutating the state.
  public init(
    initialState: State,
    reduce: @escaping (_ state: inout State, _ action: Action) async -> Void
  ) {
    self.state = initialState
    self.reducer = .async(reduce)
  }

  /// Sends an action, and asserts on how it changed the state.
  ///
  /// ```swift
  /// tester.send(.counter(.incrementButtonTapped)) {
  ///   $0.$stats.withLock { $0.increment() }
  /// }
  /// tester.send(.counter(.isPrimeButtonTapped)) {
  ///   $0.counter.alert = "👎 The number 1 is not prime :("
  /// }
  /// ```
  ///
  /// > Important: A tester created with an asynchronous reducer needs
  /// > `await tester.send(…)`; calling this synchronous method reports an issue.
  ///
  /// - Parameters:
  ///   - action: The action to run.
  ///   - updateStateToExpectedResult: A closure that applies the expected changes to the
  ///     state from before the action. Omit it when the action changes nothing.
  ///   - fileID: The file ID of the call site.
  ///   - filePath: The file path of the call site.
  ///   - line: The line of the call site.
  ///   - column: The column of the call site.
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard case .sync(let reduce) = reducer else {
      location.report(
        """
        This feature's reducer is asynchronous, so 'send' must be awaited: call \
        'await tester.send(…)' from an 'async' test.
        """
      )
      return
    }
    var next = state
    tracker.track { reduce(&next, action) }
    verify(next, updateStateToExpectedResult, at: location)
  }
}

@available(*, unavailable, message: "Use a feature tester from the test that created it.")
extension FeatureTester: Sendable {}
