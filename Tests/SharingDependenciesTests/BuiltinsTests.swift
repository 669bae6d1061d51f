import Foundation
import SharingDependencies
import Testing

@Suite struct BuiltinsTests {
  @Test func constantDateIsReturnedEveryTime() {
    let date = Date(timeIntervalSince1970: 1_234_567_890)
    withDependencies {
      $0.date = .constant(date)
    } operation: {
      @Dependency(\.date) var generator
      @Dependency(\.date.now) var now
      #expect(generator() == date)
      #expect(now == date)
    }
  }

  @Test func incrementingUUIDsCountUp() {
    withDependencies {
      $0.uuid = .incrementing
    } operation: {
      @Dependency(\.uuid) var uuid
      #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000000")
      #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000001")
      #expect(uuid().uuidString == "00000000-0000-0000-0000-000000000002")
    }
  }

  @Test func uuidFromAnIntegerIsThatNumberInItsLastDigits() {
    #expect(UUID(0).uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(UUID(1).uuidString == "00000000-0000-0000-0000-000000000001")
    #expect(UUID(26).uuidString == "00000000-0000-0000-0000-00000000001A")
    #expect(UUID(0xABC_DEF0_1234).uuidString == "00000000-0000-0000-0000-0ABCDEF01234")
    #expect(UUID((1 << 48) - 1).uuidString == "00000000-0000-0000-0000-FFFFFFFFFFFF")
  }

  @Test func incrementingUUIDsAreTheUUIDsOfZeroOneTwo() {
    withDependencies {
      $0.uuid = .incrementing
    } operation: {
      @Dependency(\.uuid) var uuid
      #expect([uuid(), uuid(), uuid()] == [UUID(0), UUID(1), UUID(2)])
    }
  }

  @Test(arguments: [-1, 1 << 48])
  func uuidFromAnIntegerOutOfRangeReportsAnIssue(intValue: Int) {
    withKnownIssue {
      _ = UUID(intValue)
    } matching: { issue in
      issue.description.contains("UUID(\(intValue)): the integer must be from 0 to 2^48 - 1.")
    }
  }

  @Test func unimplementedUUIDReportsAnIssue() {
    @Dependency(\.uuid) var uuid
    withKnownIssue {
      _ = uuid()
    } matching: { issue in
      issue.description.contains(#"Unimplemented: '@Dependency(\.uuid)'"#)
    }
  }

  @Test func unimplementedDateReportsAnIssue() {
    @Dependency(\.date) var date
    withKnownIssue {
      _ = date.now
    } matching: { issue in
      issue.description.contains(#"Unimplemented: '@Dependency(\.date)'"#)
    }
  }
}
