/** The host's commands and facts that emulated devices and links need, in one place. */
package dev.sluice.core.host;
