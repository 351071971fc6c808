/**
 * The face of `deliveries/`: what other folders may import from it (they import nothing else of it;
 * checked by `npm run lint:deps`).
 */
export * from "./Deliveries.ts"
export * from "./DeliveryConfig.ts"
export * from "./FormNotifications.ts"
export * as NotificationFormats from "./NotificationFormats.ts"
export * as RetrySchedule from "./RetrySchedule.ts"
export * as Sender from "./Sender.ts"
export * as Signatures from "./Signatures.ts"
export * as SsrfGuard from "./SsrfGuard.ts"
export * from "./TestPing.ts"
export * as TestPing from "./TestPing.ts"
export * from "./Webhooks.ts"
export * from "./WebhookAlerts.ts"
