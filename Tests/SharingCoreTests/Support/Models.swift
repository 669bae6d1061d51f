import Foundation

struct Stats: Equatable, Sendable {
  var count = 0
  var maxCount = 0
  var minCount = 0
  var numberOfCounts = 0

  mutating func increment() {
    count += 1
    numberOfCounts += 1
    maxCount = max(maxCount, count)
  }
}

struct SignUpData: Equatable, Sendable {
  var email = ""
  var phoneNumber = ""
  var topics: Set<String> = []
  var isComplete: Bool { !email.isEmpty && !phoneNumber.isEmpty }
}

struct Todo: Equatable, Identifiable, Sendable {
  let id: Int
  var title: String
  var isDone = false
}

struct User: Equatable, Identifiable, Sendable {
  let id: Int
  var name: String
}
