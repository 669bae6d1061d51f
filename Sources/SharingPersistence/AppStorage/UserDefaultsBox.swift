import Foundation

/// A user defaults store that can cross concurrency domains, compared by identity.
struct UserDefaultsBox: Hashable, @unchecked Sendable {
  // NB: Unchecked: 'UserDefaults' is documented as thread-safe and locks internally (on
  //     Linux, CFPreferences' domain lock), but is not marked 'Sendable' there.
  let base: UserDefaults

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.base === rhs.base
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(base))
  }
}
