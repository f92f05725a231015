/**
 * Web integration: HTTP 429 answers for calls over a limit.
 */
@NullMarked
package io.github.limiter.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
