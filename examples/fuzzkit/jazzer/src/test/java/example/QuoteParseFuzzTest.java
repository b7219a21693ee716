package example;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Jazzer target for QuoteParse with the conform fuzz kit. Each input is an href; the properties
 * of the kit's PROPERTIES.md that need no other implementation are checked on every answer: no
 * exception but a refusal, a refusal code the specification names, the limits of an accepted
 * citation. Without JAZZER_FUZZ=1 the test replays the kit's seeds only (regression mode).
 */
class QuoteParseFuzzTest {
  static final Set<String> CODES = Set.of(
      "QUOTE_BARE_FIELD", "QUOTE_COMMENT_TOO_LONG", "QUOTE_CONTEXT_TOO_LONG", "QUOTE_CREDENTIALS",
      "QUOTE_DOT_SEGMENT", "QUOTE_DUPLICATE_FIELD", "QUOTE_FRAGMENT", "QUOTE_HREF_TOO_LONG",
      "QUOTE_ID_EMPTY", "QUOTE_ID_TOO_LONG", "QUOTE_ID_WHITESPACE", "QUOTE_INVALID_CHARACTER",
      "QUOTE_MISSING_FIELD", "QUOTE_OFFSET_ORDER", "QUOTE_OFFSET_RANGE", "QUOTE_OFFSET_SYNTAX",
      "QUOTE_PATH", "QUOTE_PERCENT_ENCODING", "QUOTE_PORT", "QUOTE_SCHEME", "QUOTE_TEXT_EMPTY",
      "QUOTE_TEXT_TOO_LONG", "QUOTE_UNKNOWN_FIELD", "QUOTE_UNPAIRED_SURROGATE", "QUOTE_VERSION");

  @FuzzTest(maxDuration = "2m")
  void parse(FuzzedDataProvider data) {
    check(data.consumeRemainingAsString());
  }

  static void check(String href) {
    try {
      Map<String, Object> c = QuoteParse.parse(href); // property 1: only a refusal is thrown
      long start = (Long) c.get("start");
      long end = (Long) c.get("end");
      assertTrue(0 <= start && start < end && end <= (1L << 53) - 1, "offsets " + c);
      assertTrue(((String) c.get("text")).length() <= 8000, "text " + c);
    } catch (QuoteParse.Refused r) {
      assertTrue(CODES.contains(r.code), "code " + r.code); // property 2
    }
  }

  /** The kit's raw seeds, replayed as a plain test (they must all keep the properties). */
  @org.junit.jupiter.api.Test
  void seeds() throws IOException {
    Path dir = Path.of(System.getProperty("conform.kit"), "ops", "quote.parse", "seeds-raw");
    if (!Files.isDirectory(dir) || System.getenv("JAZZER_FUZZ") != null) {
      return;
    }
    for (Path p : Files.list(dir).collect(Collectors.toList())) {
      check(Files.readString(p));
    }
  }
}
