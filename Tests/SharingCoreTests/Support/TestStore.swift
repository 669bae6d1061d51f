import SharingCore
import SharingDependencies

/// An external store that tests drive: what loads return and when, which saves fail, and
/// changes made "by someone else".
final class TestStore<Value: Sendable>: Sendable {
  enum LoadBehavior: Sendable {
    /// Resume at once with the stored value (or the initial value if none).
    case immediate
    /// Keep the continuation until ``completeLoads()`` is called.
    case deferred
    /// Resume at once without a value, whatever the store holds.
    case findingNothing
    /// Resume at once with this error.
    case failing(any Error)
    /// Resume twice (a bug in a key).
    case resumingTwice
    /// Drop the continuation without resuming it (a bug in a key).
    case neverResuming
  }

  private struct State {
    var value: Value?
    var loadBehavior = LoadBehavior.immediate
    var saveError: (any Error)?
    /// Whether saves drop their continuation without resuming it (a bug in a key).
    var dropsSaves = false
    /// Runs at the start of every save, on the saving thread.
    var onSave: (@Sendable (Value) -> Void)?
    var saves: [(value: Value, context: SaveContext)] = []
    var loads: [LoadContext<Value>] = []
    var pendingLoads: [LoadContinuation<Value>] = []
    var subscribers: [Int: SharedSubscriber<Value>] = [:]
    var nextSubscriberID = 0
    var cancellations = 0
  }

  private let state: Locked<State>

  init(_ value: Value? = nil) {
    self.state = Locked(State(value: value))
  }

  var value: Value? { state.withLock { $0.value } }
  var savedValues: [Value] { state.withLock { $0.saves.map(\.value) } }
  var saveContexts: [SaveContext] { state.withLock { $0.saves.map(\.context) } }
  var loadCount: Int { state.withLock { $0.loads.count } }
  var subscriberCount: Int { state.withLock { $0.subscribers.count } }
  var cancellationCount: Int { state.withLock { $0.cancellations } }

  func setLoadBehavior(_ behavior: LoadBehavior) { state.withLock { $0.loadBehavior = behavior } }
  func setSaveError(_ error: (any Error)?) { state.withLock { $0.saveError = error } }
  func setDropsSaves(_ drops: Bool) { state.withLock { $0.dropsSaves = drops } }
  func setOnSave(_ hook: (@Sendable (Value) -> Void)?) { state.withLock { $0.onSave = hook } }

  /// Resumes every deferred load with the stored value.
  func completeLoads() {
    let (pending, value) = state.withLock { state in
      defer { state.pendingLoads.removeAll() }
      return (state.pendingLoads, state.value)
    }
    for continuation in pending {
      if let value {
        continuation.resume(returning: value)
      } else {
        continuation.resumeReturningInitialValue()
      }
    }
  }

  /// Changes the stored value as another process would, and notifies subscribers.
  func externalChange(_ value: Value?) {
    let subscribers = state.withLock { state in
      state.value = value
      return Array(state.subscribers.values)
    }
    for subscriber in subscribers {
      if let value { subscriber.yield(value) } else { subscriber.yieldReturningInitialValue() }
    }
  }

  /// Sends an error to subscribers, as a failing external store would.
  func externalError(_ error: any Error) {
    for subscriber in state.withLock({ Array($0.subscribers.values) }) {
      subscriber.yield(throwing: error)
    }
  }

  /// Tells subscribers whether the store is loading.
  func externalLoading(_ isLoading: Bool) {
    for subscriber in state.withLock({ Array($0.subscribers.values) }) {
      subscriber.yieldLoading(isLoading)
    }
  }

  fileprivate func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    let (behavior, value) = state.withLock { state in
      state.loads.append(context)
      if case .deferred = state.loadBehavior { state.pendingLoads.append(continuation) }
      return (state.loadBehavior, state.value)
    }
    switch behavior {
    case .immediate:
      if let value {
        continuation.resume(returning: value)
      } else {
        continuation.resumeReturningInitialValue()
      }
    case .findingNothing:
      continuation.resumeReturningInitialValue()
    case .deferred, .neverResuming:
      break
    case .failing(let error):
      continuation.resume(throwing: error)
    case .resumingTwice:
      continuation.resumeReturningInitialValue()
      continuation.resumeReturningInitialValue()
    }
  }

  fileprivate func subscribe(_ subscriber: SharedSubscriber<Value>) -> SharedSubscription {
    let id = state.withLock { state in
      defer { state.nextSubscriberID += 1 }
      state.subscribers[state.nextSubscriberID] = subscriber
      return state.nextSubscriberID
    }
    return SharedSubscription { [weak self] in
      self?.state.withLock { state in
        state.subscribers[id] = nil
        state.cancellations += 1
      }
    }
  }

  fileprivate func save(
    _ value: Value,
    context: SaveContext,
    continuation: SaveContinuation
  ) {
    state.withLock { $0.onSave }?(value)
    let (error, drops) = state.withLock { state in
      state.saves.append((value, context))
      if state.saveError == nil { state.value = value }
      return (state.saveError, state.dropsSaves)
    }
    if drops { return }
    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
  }
}

/// A key persisting into a ``TestStore``.
struct TestKey<Value: Sendable>: SharedKey, CustomStringConvertible {
  let name: String
  let store: TestStore<Value>

  init(_ name: String, store: TestStore<Value>) {
    self.name = name
    self.store = store
  }

  struct ID: Hashable {
    let name: String
    let store: ObjectIdentifier
  }

  var id: ID { ID(name: name, store: ObjectIdentifier(store)) }
  var description: String { ".test(\"\(name)\")" }

  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    store.load(context: context, continuation: continuation)
  }

  func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    store.subscribe(subscriber)
  }

  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    store.save(value, context: context, continuation: continuation)
  }
}

/// A read-only key persisting into a ``TestStore``.
struct TestReaderKey<Value: Sendable>: SharedReaderKey {
  let base: TestKey<Value>

  var id: TestKey<Value>.ID { base.id }

  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    base.load(context: context, continuation: continuation)
  }

  func subscribe(
    context: LoadContext<Value>,
    subscriber: SharedSubscriber<Value>
  ) -> SharedSubscription {
    base.subscribe(context: context, subscriber: subscriber)
  }
}

extension SharedReaderKey {
  static func test<Value>(_ name: String, store: TestStore<Value>) -> Self
  where Self == TestKey<Value> {
    TestKey(name, store: store)
  }

  static func testReader<Value>(_ name: String, store: TestStore<Value>) -> Self
  where Self == TestReaderKey<Value> {
    TestReaderKey(base: TestKey(name, store: store))
  }
}

struct StoreError: Error, Equatable {
  let message: String
}
