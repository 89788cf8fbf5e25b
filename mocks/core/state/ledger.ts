/** What one billing account has used (§4.2 rule 3, §2.4 "billing uses a weighted character count"). */
export interface AccountUsage {
  freeUsesConsumed: number;
  /** Creations after the free uses ran out: the mock records them instead of charging. */
  chargedCreations: { voice_id: string; created_at: number }[];
  synthesizedCharacters: number;
}

export type LedgerSnapshot = Record<string, AccountUsage>;

/**
 * The billing ledger of the mock, per account.
 *
 * @example
 * const charged = ledger.recordCreation('account-1', 'narrator', 1767225600, config.freeCloneUses);
 */
export class Ledger {
  private accounts = new Map<string, AccountUsage>();

  constructor(private readonly freeUses: number) {}

  private usage(account: string): AccountUsage {
    let usage = this.accounts.get(account);
    if (!usage) {
      usage = { freeUsesConsumed: 0, chargedCreations: [], synthesizedCharacters: 0 };
      this.accounts.set(account, usage);
    }
    return usage;
  }

  remainingFreeUses(account: string): number {
    return Math.max(0, this.freeUses - (this.accounts.get(account)?.freeUsesConsumed ?? 0));
  }

  /** Consumes a free use while any remain, else records a charged creation. Returns true when charged. */
  recordCreation(account: string, voiceId: string, createdAt: number): boolean {
    const usage = this.usage(account);
    if (usage.freeUsesConsumed < this.freeUses) {
      usage.freeUsesConsumed += 1;
      return false;
    }
    usage.chargedCreations.push({ voice_id: voiceId, created_at: createdAt });
    return true;
  }

  recordCharacters(account: string, characters: number): void {
    this.usage(account).synthesizedCharacters += characters;
  }

  /** Sets an account's synthesized characters to what a shared store counted. */
  setCharacters(account: string, characters: number): void {
    this.usage(account).synthesizedCharacters = characters;
  }

  /** A copy of one account's usage (what a durable store keeps of it). */
  usageOf(account: string): AccountUsage {
    return structuredClone(this.usage(account));
  }

  charactersOf(account: string): number {
    return this.accounts.get(account)?.synthesizedCharacters ?? 0;
  }

  snapshot(): LedgerSnapshot {
    return structuredClone(Object.fromEntries(this.accounts));
  }

  restore(snapshot: LedgerSnapshot): void {
    this.accounts = new Map(Object.entries(structuredClone(snapshot)));
  }
}
