/** The authenticated caller of a request: a partner, through one of its credentials. */
export interface Principal {
  partnerId: string;
  partnerName: string;
  clientId: string;
  environment: string;
  channels: ReadonlySet<string>;
  quotaLimit: number;
  quotaWindowSeconds: number;
}
