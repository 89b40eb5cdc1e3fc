import { describe, expect, it } from 'vitest';
import { abaPayer, loadConfig } from '../../src/config/index.js';
import { missingGrantSettings } from '../../src/config/grants.js';

const bankIdentity = {
  GRANT_ABA_USER_NAME: 'CLUB SPORTS FOUNDATION',
  GRANT_ABA_APCA_USER_ID: '301500',
  GRANT_ABA_BANK: 'WBC',
  GRANT_ABA_BSB: '032000',
  GRANT_ABA_ACCOUNT: '123456',
};

describe('grant settings', () => {
  it('defaults to two rounds a month, paid on settlement, no fee, a 7-day hold and 90 days to acquit', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      GRANT_SCHEDULE: '15,last',
      GRANT_BASIS: 'settled',
      GRANT_FEE_PERCENT: '0',
      GRANT_MINIMUM: '20.00',
      GRANT_BANK_CHANGE_HOLD_DAYS: 7,
      ACQUITTAL_DUE_DAYS: 90,
      ACQUITTAL_REMINDER_DAYS: 14,
    });
  });

  it('refuses a schedule day the month may not have and a fee over 100%, naming the setting', () => {
    expect(() => loadConfig({ GRANT_SCHEDULE: '15,31' })).toThrow(/GRANT_SCHEDULE/);
    expect(() => loadConfig({ GRANT_FEE_PERCENT: '100.5' })).toThrow(/GRANT_FEE_PERCENT/);
    expect(() => loadConfig({ GRANT_BASIS: 'received' })).toThrow(/GRANT_BASIS/);
    expect(loadConfig({ GRANT_SCHEDULE: '1, 15 ,last', GRANT_FEE_PERCENT: '2.5' }).GRANT_FEE_PERCENT).toBe('2.5');
  });

  it('outside production pays from a sample account; production names every missing part of its own', () => {
    expect(abaPayer(loadConfig({})).apcaUserId).toBe('000000');
    expect(missingGrantSettings(loadConfig({}))).toEqual([]);
    const missing = missingGrantSettings(loadConfig({ APP_ENV: 'production' }));
    expect(missing.map((line) => line.trim().split(':')[0])).toEqual(Object.keys(bankIdentity));
    const config = loadConfig({ APP_ENV: 'production', ...bankIdentity });
    expect(missingGrantSettings(config)).toEqual([]);
    expect(abaPayer(config)).toEqual({
      userName: 'CLUB SPORTS FOUNDATION',
      apcaUserId: '301500',
      bank: 'WBC',
      bsb: '032-000',
      account: '123456',
      remitter: 'SPORTS FOUNDATN',
    });
  });
});
