import Dispatch
import SharingDependencies

/// An asynchronous sequence of a shared value: its current value, then its value after each
/// change. Reached through ``Shared/values`` and ``SharedReader/values``.
///
/// ```swift
/// for await count in $count.values {
///   print("count is now", count)
/// }
/// ```
///
/// Values are delivered in order, however slowly the sequence is consumed: every change made
/// from one thread, and for changes made from several threads at once, at least the value
/// after the last of them. The thread that changes the value yields it: its own change, and at
/// most one other made while it did; a change made while yields are under way on other
/// threads is yielded by a dispatched job, so no change waits for a yield. The sequence
/// follows the shared value it was created from to the key it moves to with
/// ``Shared/load(_:)``. It ends when the consuming task is cancelled.
public struct SharedValues<Value: Sendable>: AsyncSequence, Sendable {
  /// The type of element produced: the shared value.
  public typealias Element = Value
  /// The sequence never fails.
  public typealias Failure = Never

  let box: SharedBox<Value>

  /// Starts observing the shared value.
  public func makeAsyncIterator() -> Iterator {
    let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
    let observation = ValueObservation(of: box) { continuation.yield($0) }
    continuation.onTermination = { [weak observation] _ in observation?.cancel() }
    observation.valueDidChange()
    return Iterator(base: stream.makeAsyncIterator(), observation: observation)
  }

  /// The iterator of a ``SharedValues`` sequence.
  public struct Iterator: AsyncIteratorProtocol {
    var base: AsyncStream<Value>.Iterator
    /// Kept alive by the iterator only: it stops observing when the iterator goes away.
    let observation: AnyObject

    /// The next value: the current value first, then the value after each change.
    public mutating func next() async -> Value? {
      await base.next()
    }

    /// The next value, resumed on the given actor.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
      await base.next(isolation: actor)
    }
  }
}

extension Shared where Value: Sendable {
  /// The current value, then the value after each change, as an asynchronous sequence.
  public var values: SharedValues<Value> { SharedValues(box: box) }
}

extension SharedReader where Value: Sendable {
  /// The current value, then the value after each change, as an asynchronous sequence.
  public var values: SharedValues<Value> { SharedValues(box: box) }
}

/// Observes the value of a shared value, following its box to wherever it is re-pointed
/// (``Shared/load(_:)``, assigning a projected value).
private final class ValueObservation<Value: Sendable>: Sendable {
  private let box: SharedBox<Value>
  private let yield: @Sendable (Value) -> Void
  /// Who yields the value, and when. A change that would wait for the yield in progress is
  /// yielded by a turn dispatched when that yield ends: no writer waits.
  private let turns = Locked(TurnClaim<Void>())
  /// The root observed and the registration there; `nil` once cancelled.
  private let observed = Locked<Observed?>(Observed())

  private struct Observed {
    var root: (any SharedRoot)?
    var token: ObserverToken?
  }

  init(of box: SharedBox<Value>, yield: @escaping @Sendable (Value) -> Void) {
    self.box = box
    self.yield = yield
  }

  deinit {
    cancel()
  }

  /// Yields the latest value, first moving the observation if the box was re-pointed:
  /// now, or in a turn taken after the yield in progress, by this thread or by a dispatched
  /// job.
  // Called after every change, by the thread that made it, which may hold other values' locks (a
  // change made inside another value's 'withLock'): it never waits for another thread's yield,
  // which may need one of them through a reader's transform.
  func valueDidChange() {
    let thread = currentThreadID()
    switch turns.withLock({ $0.changed(by: thread) {} }) {
    case .none, .waitThenRun:
      return
    case .run:
      takeTurns()
    }
  }

  /// Yields the latest value, as many times as the claim says, then hands the next turn, if
  /// a change is waiting for one, to a dispatched job.
  private func takeTurns() {
    TurnClaim.runTurns(
      {
        follow()
        // Outside the lock: reading may run a reader's transform, which is user code.
        yield(box.reference.read())
      },
      finishing: { turns.withLock { $0.turnFinished() } },
      handingOverTo: { DispatchQueue.global().async { self.takeTurns() } }
    )
  }

  func cancel() {
    observed.withLock { observed in
      defer { observed = nil }
      return observed?.token
    }?.remove()
  }

  // Only called in a turn, so one call at a time.
  private func follow() {
    let root = box.reference.root
    guard observed.withLock({ $0 != nil && $0?.root !== root }) else { return }
    let token = root.addObserver { [weak self] in self?.valueDidChange() }
    let replaced = observed.withLock { observed -> ObserverToken? in
      guard observed != nil else { return token }
      defer { observed = Observed(root: root, token: token) }
      return observed?.token
    }
    replaced?.remove()
  }
}
