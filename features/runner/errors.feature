Feature: The runner: Errors and rejections
  An error is the implementation saying it could not do the job; a rejection is the job
  done: the op refused its input. The two never mix, so a parser that refuses a bad link
  is credited, and one that crashes on it is not.

  @PROTO-ERROR-004
  Scenario: An internal error is reported as an error, not as a wrong answer
    Given the fake implementation "errorkind"
    When the runner runs every vector
    Then the outcome of "echo.echo/internal-error" is "error"

  @PROTO-REJECT-001 @PROTO-REJECT-002 @PROTO-RESULT-001
  Scenario: A refusal is an output, and its code is compared only when given
    Given the comparison of expected output '{"rejected":{"code":"X"}}'
    Then the actual output '{"rejected":{}}' matches
    And the actual output '{"rejected":{"code":"X","message":"any text"}}' matches
    And the actual output '{"rejected":{"code":"Y"}}' does not match
    And the actual output '{"citation":{}}' is "accepted-wrongly"

  @PROTO-RESULT-001
  Scenario: Outputs compare as JSON values
    Given the comparison of expected output '{"a":10,"b":[1,2]}'
    Then the actual output '{"b":[1,2],"a":1e1}' matches
    And the actual output '{"a":10,"b":[1,2],"c":null}' does not match

  @PROTO-RESULT-003
  Scenario: An answer naming a member twice is a protocol violation, not a wrong answer
    Given the fake implementation "twice"
    When the runner runs every vector
    Then the outcome of "echo.echo/wrong-answer" is "protocol"
    And the outcome of "echo.echo/plain" is "pass"

  @PROTO-RESULT-002
  Scenario: A wrong answer fails the run with the vector, its requirements and a diff
    Given the fake implementation "wrong"
    When the runner runs every vector
    Then the outcome of "echo.echo/wrong-answer" is "fail"
    And the report shows the requirement "PROTO-FRAME-001" and the request line of "echo.echo/wrong-answer"
    And the exit code is 1
