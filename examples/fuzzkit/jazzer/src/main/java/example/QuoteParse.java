package example;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small quote.parse, written for the fuzz kit's check: it follows the main rules of
 * spec/quote-link.md, not all of them, and carries one planted bug (PLANTED below): a '%'
 * within the last two characters of a value is read past the end of the string.
 */
public final class QuoteParse {
  private QuoteParse() {}

  static final String PREFIX = "t3-citation://v1/";
  static final List<String> KEYS = List.of("text", "start", "end", "prefix", "suffix", "comment");

  /** A refusal of the href, with its code. */
  public static final class Refused extends Exception {
    public final String code;

    Refused(String code) {
      super(code);
      this.code = code;
    }
  }

  static String decode(String s) throws Refused {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < s.length(); ) {
      char c = s.charAt(i);
      if (c == '%') {
        String pair = "" + s.charAt(i + 1) + s.charAt(i + 2); // PLANTED: no check that two characters follow
        try {
          out.write(Integer.parseInt(pair, 16));
        } catch (NumberFormatException e) {
          throw new Refused("QUOTE_PERCENT_ENCODING");
        }
        i += 3;
      } else {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
        i++;
      }
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(out.toByteArray())).toString();
    } catch (CharacterCodingException e) {
      throw new Refused("QUOTE_PERCENT_ENCODING");
    }
  }

  static long offset(String v) throws Refused {
    if (v.isEmpty() || v.length() > 16 || !v.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new Refused("QUOTE_OFFSET_SYNTAX");
    }
    long n = Long.parseLong(v);
    if (n > (1L << 53) - 1) {
      throw new Refused("QUOTE_OFFSET_RANGE");
    }
    return n;
  }

  /** Returns the citation's members, or throws Refused. */
  public static Map<String, Object> parse(String href) throws Refused {
    if (!href.startsWith(PREFIX)) {
      throw new Refused("QUOTE_SCHEME");
    }
    if (href.length() > 160000) {
      throw new Refused("QUOTE_HREF_TOO_LONG");
    }
    if (href.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
      throw new Refused("QUOTE_INVALID_CHARACTER");
    }
    if (href.contains("#")) {
      throw new Refused("QUOTE_FRAGMENT");
    }
    String rest = href.substring(PREFIX.length());
    int q = rest.indexOf('?');
    String path = q < 0 ? rest : rest.substring(0, q);
    String query = q < 0 ? "" : rest.substring(q + 1);
    String[] segments = path.split("/", -1);
    if (segments.length != 3) {
      throw new Refused("QUOTE_PATH");
    }
    String[] ids = new String[3];
    for (int i = 0; i < 3; i++) {
      ids[i] = decode(segments[i]).strip();
      if (ids[i].isEmpty()) {
        throw new Refused("QUOTE_ID_EMPTY");
      }
      if (ids[i].equals(".") || ids[i].equals("..")) {
        throw new Refused("QUOTE_DOT_SEGMENT");
      }
      if (ids[i].length() > 512) {
        throw new Refused("QUOTE_ID_TOO_LONG");
      }
    }
    Map<String, String> fields = new LinkedHashMap<>();
    for (String part : query.isEmpty() ? new String[0] : query.split("&", -1)) {
      int eq = part.indexOf('=');
      if (eq < 0) {
        throw new Refused("QUOTE_BARE_FIELD");
      }
      String key = decode(part.substring(0, eq).replace('+', ' '));
      String value = decode(part.substring(eq + 1).replace('+', ' '));
      if (!KEYS.contains(key)) {
        throw new Refused("QUOTE_UNKNOWN_FIELD");
      }
      if (fields.put(key, value) != null) {
        throw new Refused("QUOTE_DUPLICATE_FIELD");
      }
    }
    for (String k : List.of("text", "start", "end", "prefix", "suffix")) {
      if (!fields.containsKey(k)) {
        throw new Refused("QUOTE_MISSING_FIELD");
      }
    }
    if (fields.get("text").isBlank()) {
      throw new Refused("QUOTE_TEXT_EMPTY");
    }
    if (fields.get("text").length() > 8000) {
      throw new Refused("QUOTE_TEXT_TOO_LONG");
    }
    if (fields.containsKey("comment") && fields.get("comment").length() > 8000) {
      throw new Refused("QUOTE_COMMENT_TOO_LONG");
    }
    long start = offset(fields.get("start"));
    long end = offset(fields.get("end"));
    if (end <= start) {
      throw new Refused("QUOTE_OFFSET_ORDER");
    }
    if (fields.get("prefix").length() > 32 || fields.get("suffix").length() > 32) {
      throw new Refused("QUOTE_CONTEXT_TOO_LONG");
    }
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("version", 1);
    c.put("environmentId", ids[0]);
    c.put("threadId", ids[1]);
    c.put("messageId", ids[2]);
    c.put("text", fields.get("text"));
    if (fields.containsKey("comment")) {
      c.put("comment", fields.get("comment"));
    }
    c.put("start", start);
    c.put("end", end);
    c.put("prefix", fields.get("prefix"));
    c.put("suffix", fields.get("suffix"));
    return c;
  }
}
