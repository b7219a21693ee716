package example;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** quote.normalize: each maximal run of whitespace becomes one space, and a lone surrogate U+FFFD. */
public final class QuoteNormalize {
  private QuoteNormalize() {}

  /** The input is not one the op accepts: a protocol bad_request. */
  public static final class BadRequest extends RuntimeException {
    public BadRequest(String message) {
      super(message);
    }
  }

  /** JavaScript's \s, the whitespace of quote.normalize (spec/quote-anchor.md). */
  static boolean whitespace(int c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0xA0 || c == 0x1680
        || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029
        || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
  }

  public static JsonNode apply(JsonNode input) {
    if (!input.isObject() || input.size() != 1 || !input.has("text") || !input.get("text").isTextual()) {
      throw new BadRequest("input must be {\"text\": string}");
    }
    StringBuilder out = new StringBuilder();
    boolean inRun = false;
    for (int c : (Iterable<Integer>) input.get("text").asText().codePoints()::iterator) {
      if (whitespace(c)) {
        if (!inRun) {
          out.append(' ');
        }
        inRun = true;
        continue;
      }
      inRun = false;
      out.appendCodePoint(Character.isSurrogate((char) c) && c <= 0xFFFF ? 0xFFFD : c);
    }
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    result.put("text", out.toString());
    return result;
  }
}
