import SharingDependencies

/// Weak references to objects, to check that they all went away.
public final class WeakReferences: Sendable {
  private struct Weak: @unchecked Sendable {
    // NB: Unchecked: only accessed under the lock.
    weak var object: AnyObject?
  }

  private let references = Locked<[Weak]>([])

  public init() {}

  /// Starts following an object.
  public func append(_ object: AnyObject) {
    references.withLock { $0.append(Weak(object: object)) }
  }

  /// How many objects are followed.
  public var count: Int { references.withLock(\.count) }

  /// How many of the followed objects are still alive.
  public var aliveCount: Int { references.withLock { $0.filter { $0.object != nil }.count } }
}
