Feature: The runner: Stdio, HTTP and time limits
  Whatever the implementation does, crash, hang or flood, the run completes and says
  precisely what happened to each vector.

  @PROTO-STDIO-001
  Scenario: Standard error is captured and shown with a failure
    Given the fake implementation "crash" that crashes on its request 3
    When the runner runs every vector
    Then the outcome of "echo.echo/wrong-answer" is "crash"
    And the report shows the stderr line "fake: boom on request 3"

  @PROTO-STDIO-001
  Scenario: A flood on standard error neither blocks nor exhausts the runner
    Given the fake implementation "stderrflood"
    When the runner runs every vector
    Then every outcome is "pass"

  @PROTO-STDIO-004
  Scenario: A crash restarts the implementation and the run goes on
    Given the fake implementation "crash" that crashes on its request 3
    When the runner runs every vector
    Then the outcome of "echo.echo/wrong-answer" is "crash"
    And the outcome of "echo.echo/after-all" is "pass"
    And the exit code is 1

  @PROTO-STDIO-004
  Scenario: A crash with several requests in flight is pinned on the oldest, and the others are sent again
    Given the fake implementation "crashholding"
    When the runner runs every vector
    Then exactly 1 outcome is "crash"
    And the exit code is 1

  @PROTO-TIME-001
  Scenario: A hanging request times out, and the others still pass
    Given the fake implementation "hang"
    When the runner runs every vector with a timeout of 500 ms
    Then the outcome of "echo.echo/hang" is "timeout"
    And the outcome of "echo.echo/after-all" is "pass"
    And the run completes

  @PROTO-HTTP-001 @PROTO-HTTP-002
  Scenario: Over HTTP, one request or a batch per POST
    Given the reference served over HTTP
    When it is POSTed the body:
      """
      [{"id":1,"op":"hello","input":{"protocol":1}},{"id":"b","op":"conform.no-such-op","input":{}}]
      """
    Then the HTTP status is 200
    And the body is an array of 2 answers with the ids 1 and "b"

  @PROTO-HTTP-003
  Scenario: Over HTTP, a body that is not JSON is a bad request
    Given the reference served over HTTP
    When it is POSTed the body:
      """
      {"id":1,
      """
    Then the HTTP status is 400
    And the answer has error kind "bad_request"

  @PROTO-HTTP-003
  Scenario: Over HTTP, a status 500 is an error and a refused connection a crash
    Given an HTTP implementation that answers every op with status 500
    When the runner runs every vector
    Then every outcome is "error"

  @PROTO-HTTP-004
  Scenario: Over HTTP, a batch longer than the server accepts is refused whole
    Given the reference served over HTTP with a batch limit of 2
    When it is POSTed the body:
      """
      [{"id":1,"op":"hello","input":{"protocol":1}},{"id":2,"op":"hello","input":{"protocol":1}},{"id":3,"op":"hello","input":{"protocol":1}}]
      """
    Then the HTTP status is 413
    And the answer has error kind "bad_request"

  @PROTO-HTTP-004
  Scenario: Over HTTP, a redirect is not followed but reported
    Given an HTTP implementation that redirects every op to another server
    When the runner runs every vector
    Then every outcome is "protocol"
    And the exit code is 1

  @PROTO-ID-004
  Scenario: A string id that is not Unicode text is refused by the reference, not echoed
    Given the reference served over HTTP
    When it is POSTed the body:
      """
      {"id":"\ud800","op":"hello","input":{"protocol":1}}
      """
    Then the HTTP status is 200
    And the answer has error kind "bad_request"
