import SharingDependencies
import Testing

@Suite struct DependencyTests {
  @Test func keyPathAndTypeFormsReadTheSameValue() {
    let model = GreeterModel()
    #expect(model.greeting == "test")
    #expect(model.greetingByType == "test")
  }

  @Test func objectCreatedInsideWithDependenciesKeepsItsOverrides() {
    let model = withDependencies {
      $0.greeting = "remembered"
    } operation: {
      GreeterModel()
    }
    #expect(model.greeting == "remembered")
    #expect(model.greetingByType == "remembered")
  }

  @Test func overridesWhereTheValueIsReadTakePrecedence() {
    let model = withDependencies {
      $0.greeting = "at creation"
    } operation: {
      GreeterModel()
    }
    withDependencies {
      $0.greeting = "at read"
    } operation: {
      #expect(model.greeting == "at read")
    }
  }

  @Test func optionalValuedKeyResolvesToItsDefaultUntilOverridden() {
    @Dependency(\.nickname) var nickname
    @Dependency(NicknameKey.self) var nicknameByType
    #expect(nickname == "test")
    #expect(nicknameByType == "test")
    withDependencies {
      $0.nickname = nil
    } operation: {
      #expect(nickname == nil)
    }
  }

  @Test func valueIsResolvedWhenReadNotWhenCreated() {
    let model = GreeterModel()
    withDependencies {
      $0.greeting = "later"
    } operation: {
      #expect(model.greeting == "later")
    }
  }
}
