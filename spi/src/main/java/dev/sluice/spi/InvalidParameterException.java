package dev.sluice.spi;

/**
 * A parameter outside what Sluice accepts. The message names the parameter, the value given and what is allowed, so
 * that the command line can print it as is; thrown before anything is written.
 */
@EngineOnly
public final class InvalidParameterException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String parameter;
    private final String value;
    private final String allowed;

    public InvalidParameterException(String parameter, Object value, String allowed) {
        super("invalid " + parameter + " '" + value + "': allowed is " + allowed);
        this.parameter = parameter;
        this.value = String.valueOf(value);
        this.allowed = allowed;
    }

    public String parameter() {
        return parameter;
    }

    public String value() {
        return value;
    }

    public String allowed() {
        return allowed;
    }
}
