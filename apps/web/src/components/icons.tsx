import {
  IconAdjustments,
  IconBuildingStore,
  IconChartDots,
  IconDatabaseCog,
  IconFolders,
  IconHistory,
  IconKey,
  IconLayoutDashboard,
  IconMail,
  IconMessageStar,
  IconMessages,
  IconRobot,
  IconSearch,
  IconSettings,
  IconShieldLock,
  IconTags,
  IconTemplate,
  IconUser,
  IconUserQuestion,
  IconUserShield,
  IconUsers,
  IconZoomQuestion,
  type Icon as TablerIcon,
} from '@tabler/icons-react';

/** The Tabler icons the manifest names, imported one by one so that only these reach the bundle. */
const ICONS: Record<string, TablerIcon> = {
  LayoutDashboard: IconLayoutDashboard,
  Settings: IconSettings,
  User: IconUser,
  ShieldLock: IconShieldLock,
  Key: IconKey,
  Folders: IconFolders,
  Users: IconUsers,
  Search: IconSearch,
  DatabaseCog: IconDatabaseCog,
  Robot: IconRobot,
  Tags: IconTags,
  MessageStar: IconMessageStar,
  ZoomQuestion: IconZoomQuestion,
  Messages: IconMessages,
  History: IconHistory,
  Mail: IconMail,
  Template: IconTemplate,
  Adjustments: IconAdjustments,
  UserQuestion: IconUserQuestion,
  BuildingStore: IconBuildingStore,
  ChartDots: IconChartDots,
  UserShield: IconUserShield,
};

export function ManifestIcon({ name, size = 22 }: { name: string; size?: number }) {
  const Icon = ICONS[name] ?? IconLayoutDashboard;
  return <Icon size={size} stroke={1.6} aria-hidden />;
}
