/// The storage behind ``Shared`` and ``SharedReader``: a ``RootReference`` holding a value, or a
/// projection viewing a part of another reference's value (``KeyPathReference``,
/// ``ProjectionReference``).
@usableFromInline
protocol SharedReference<Value>: AnyObject, Sendable, CustomStringConvertible {
  associatedtype Value

  /// The root holding the value this reference holds or views: it observes changes, identifies
  /// the value, and persists it.
  var root: any SharedRoot { get }

  /// The current value, recorded as an access for observation.
  func read() -> Value

  /// Mutates the value with exclusive access: what ``Shared/withLock(_:)`` calls, with a body
  /// that returns `false` if `withLock`'s body threw (a coordinated key's transaction then
  /// changes nothing; other values keep what the body changed before it threw).
  func modify(_ body: (inout Value) -> Bool)

  /// A writable view of a part of the value: a ``KeyPathReference`` on this reference, or, on
  /// a key path reference, one on its base with the key paths appended, so that a chain of
  /// members (`$state.profile.stats.count`) is one view.
  func appending<Member>(
    _ keyPath: WritableKeyPath<Value, Member>
  ) -> any SharedReference<Member>

  /// The member stored `offset` bytes into the value, recorded as an access for observation:
  /// a root reads it in place, without copying the whole value.
  ///
  /// `offset` is a stored property's, from `MemoryLayout<Value>.offset(of:)`, and `Member` is
  /// that property's type.
  func readMember<Member>(at offset: Int, as type: Member.Type) -> Member

  /// Mutates the member stored `offset` bytes into the value with exclusive access, as
  /// ``modify(_:)`` mutates the value.
  func modifyMember<Member>(at offset: Int, as type: Member.Type, _ body: (inout Member) -> Bool)
}

/// A ``RootReference``, seen without its value type: what every reference viewing it shares.
@usableFromInline
protocol SharedRoot: AnyObject, Sendable {
  /// Registers a closure called after every change of the value; returns a token to remove it.
  func addObserver(_ onChange: @escaping @Sendable () -> Void) -> ObserverToken

  /// Makes a change that is not a write, such as re-pointing a ``SharedBox``, telling the
  /// value's observers as a write would.
  func notifyingObservers(of change: () -> Void)

  /// The part that keeps the value in sync with its key; `nil` for ``Shared/init(value:)``.
  var anyPersistence: (any Persistence)? { get }
}

/// Removes a change observer registered with ``SharedRoot/addObserver(_:)``.
@usableFromInline
struct ObserverToken: Sendable {
  let remove: @Sendable () -> Void
}
